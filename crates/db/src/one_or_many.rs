//! [`OneOrMany`]: a short list whose single item is held in place.

use thin_vec::ThinVec;

/// A list of items kept in great numbers where most lists hold one: the
/// attributes a reference's target reads, the sites an address of a
/// module's index is declared at. One is held in place (a thin vector's
/// allocation for it was an eighth of a watched module's resolutions);
/// none or several in a thin vector. Read as a slice.
#[derive(Clone)]
pub enum OneOrMany<T> {
    One(T),
    /// None, or more than one.
    Many(ThinVec<T>),
}

impl<T> Default for OneOrMany<T> {
    fn default() -> OneOrMany<T> {
        OneOrMany::Many(ThinVec::new())
    }
}

impl<T> From<T> for OneOrMany<T> {
    fn from(item: T) -> OneOrMany<T> {
        OneOrMany::One(item)
    }
}

impl<T> From<ThinVec<T>> for OneOrMany<T> {
    fn from(mut all: ThinVec<T>) -> OneOrMany<T> {
        if all.len() == 1
            && let Some(only) = all.pop()
        {
            return OneOrMany::One(only);
        }
        OneOrMany::Many(all)
    }
}

impl<T> FromIterator<T> for OneOrMany<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> OneOrMany<T> {
        OneOrMany::from(iter.into_iter().collect::<ThinVec<T>>())
    }
}

impl<T> std::ops::Deref for OneOrMany<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            OneOrMany::One(item) => std::slice::from_ref(item),
            OneOrMany::Many(all) => all,
        }
    }
}

impl<T> std::ops::DerefMut for OneOrMany<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            OneOrMany::One(item) => std::slice::from_mut(item),
            OneOrMany::Many(all) => all,
        }
    }
}

impl<'a, T> IntoIterator for &'a OneOrMany<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Clone> OneOrMany<T> {
    /// Inserts `item` at `index`, as a vector does.
    pub fn insert(&mut self, index: usize, item: T) {
        match self {
            OneOrMany::Many(all) if all.is_empty() => *self = OneOrMany::One(item),
            OneOrMany::Many(all) => all.insert(index, item),
            OneOrMany::One(first) => {
                let mut all = ThinVec::with_capacity(2);
                all.push(first.clone());
                all.insert(index, item);
                *self = OneOrMany::Many(all);
            }
        }
    }

    /// Keeps the items `keep` says to, as a vector does.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        match self {
            OneOrMany::One(item) => {
                if !keep(item) {
                    *self = OneOrMany::default();
                }
            }
            OneOrMany::Many(all) => {
                all.retain(|item| keep(item));
                if let [only] = all.as_slice() {
                    *self = OneOrMany::One(only.clone());
                }
            }
        }
    }
}

/// Equal as lists, however each is held.
impl<T: PartialEq> PartialEq for OneOrMany<T> {
    fn eq(&self, other: &OneOrMany<T>) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for OneOrMany<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for OneOrMany<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
