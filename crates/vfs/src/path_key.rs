//! [`PathKey`]: a path as a map's key, hashed and compared as text, and
//! [`PathMap`], a map keyed by it.

use std::borrow::{Borrow, Cow};
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::FxHashMap;

/// A path kept as a map's key, hashed and compared by its text.
///
/// `Path` hashes byte by byte around its separators and compares component
/// by component: over a large tree, the maps from paths to files and
/// modules spent a tenth of a check there. A key is made in one normal form
/// ([`normal_text`]: its components joined by single separators), and two
/// paths are equal as `Path`s exactly when their normal forms are equal as
/// text, so comparing keys as text is exact. Look a path up with
/// `map.get(&*normal_text(path))`.
#[derive(Clone, Debug)]
pub struct PathKey(Utf8PathBuf);

impl PathKey {
    pub fn new(path: impl Into<Utf8PathBuf>) -> PathKey {
        let path = path.into();
        match normal_text(&path) {
            Cow::Borrowed(_) => PathKey(path),
            Cow::Owned(normal) => PathKey(Utf8PathBuf::from(normal)),
        }
    }

    pub fn as_path(&self) -> &Utf8Path {
        &self.0
    }
}

impl Deref for PathKey {
    type Target = Utf8Path;

    fn deref(&self) -> &Utf8Path {
        &self.0
    }
}

impl AsRef<Utf8Path> for PathKey {
    fn as_ref(&self) -> &Utf8Path {
        &self.0
    }
}

/// Hashed and compared as the text it borrows as, which is what makes
/// `map.get(&str)` find it.
impl Borrow<str> for PathKey {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl Hash for PathKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_str().hash(state);
    }
}

impl PartialEq for PathKey {
    fn eq(&self, other: &PathKey) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl Eq for PathKey {}

/// A hash map from paths, keyed by [`PathKey`]: looked up by any spelling
/// of a path, hashed and compared as text.
#[derive(Debug, Clone)]
pub struct PathMap<V> {
    entries: FxHashMap<PathKey, V>,
}

impl<V> Default for PathMap<V> {
    fn default() -> PathMap<V> {
        PathMap { entries: FxHashMap::default() }
    }
}

impl<V> PathMap<V> {
    pub fn get(&self, path: &Utf8Path) -> Option<&V> {
        self.entries.get(&*normal_text(path))
    }

    pub fn get_mut(&mut self, path: &Utf8Path) -> Option<&mut V> {
        self.entries.get_mut(&*normal_text(path))
    }

    pub fn contains_key(&self, path: &Utf8Path) -> bool {
        self.entries.contains_key(&*normal_text(path))
    }

    pub fn insert(&mut self, path: impl Into<Utf8PathBuf>, value: V) -> Option<V> {
        self.entries.insert(PathKey::new(path), value)
    }

    pub fn remove(&mut self, path: &Utf8Path) -> Option<V> {
        self.entries.remove(&*normal_text(path))
    }

    pub fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The paths and values, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Utf8Path, &V)> {
        self.entries.iter().map(|(key, value)| (key.as_path(), value))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.values()
    }
}

/// The value of a path the map has; panics on one it has not.
impl<V, P: AsRef<Utf8Path>> std::ops::Index<P> for PathMap<V> {
    type Output = V;

    fn index(&self, path: P) -> &V {
        let path = path.as_ref();
        self.get(path).unwrap_or_else(|| panic!("no entry for `{path}`"))
    }
}

/// The text of `path` in the normal form of a [`PathKey`]: its components
/// (as `Path::components` gives them) joined by single separators. Borrowed
/// when `path` is already in that form, as a walk's and a join's paths are.
pub fn normal_text(path: &Utf8Path) -> Cow<'_, str> {
    let text = path.as_str();
    if !may_not_be_normal(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    let normal: Utf8PathBuf = path.components().collect();
    if normal.as_str() == text { Cow::Borrowed(text) } else { Cow::Owned(normal.into_string()) }
}

/// Whether `path` may not be in normal form: it ends in a separator, or
/// has two separators in a row, or a `.` component after a separator
/// (`/./`, or `/.` at its end). A `..` component and a name that starts
/// with a dot are kept by `Path::components` as they are written, so a
/// path with those (a dependency's `unit/../vpc`) takes no slow check.
fn may_not_be_normal(path: &[u8]) -> bool {
    // Without an early exit or short-circuits, so that the compiler turns
    // the scan into vector code: a path is looked up at every step of a
    // check, and scanning byte by byte with branches cost more than the
    // lookup itself. Each separator is looked at with the two bytes after
    // it; the last two bytes are the ends checked below.
    let (next, after) = (path.get(1..).unwrap_or_default(), path.get(2..).unwrap_or_default());
    let inner = path.iter().zip(next).zip(after).fold(false, |found, ((&a, &b), &c)| {
        found | ((a == b'/') & ((b == b'/') | ((b == b'.') & (c == b'/'))))
    });
    inner | (path.len() > 1 && path.ends_with(b"/")) | path.ends_with(b"/.")
}

/// Whether `path` may have a component other than a name (an empty one,
/// `.` or `..`) after its first: it ends in a separator, or has a
/// separator before another or before a `.` (a `.` or `..` component, or
/// a name starting with a dot, which the caller's slow check tells apart).
pub(crate) fn may_have_special_components(path: &[u8]) -> bool {
    // Branch-free, as `may_not_be_normal`.
    let doubled = path
        .iter()
        .zip(path.iter().skip(1))
        .fold(false, |found, (&a, &b)| found | ((a == b'/') & ((b == b'/') | (b == b'.'))));
    doubled | (path.len() > 1 && path.ends_with(b"/"))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Two paths have equal keys exactly when they are equal as `Path`s.
    #[test]
    fn keys_are_equal_when_paths_are() {
        let paths = [
            "a/b",
            "a//b",
            "a/./b",
            "a/b/",
            "a/b/.",
            "./a/b",
            "././a/b",
            "a/../b",
            "a/.hidden",
            "/",
            "//",
            "/a",
            "//a",
            ".",
            "./",
            "",
            "a",
            "a/",
            "/a/b",
            "/a//b/",
            "../a",
            "./../a",
            "a/.",
            "a/..",
        ];
        for x in paths {
            for y in paths {
                let (px, py) = (Utf8Path::new(x), Utf8Path::new(y));
                assert_eq!(PathKey::new(px) == PathKey::new(py), px == py, "{x:?} and {y:?}");
            }
            assert_eq!(PathKey::new(x).as_str(), normal_text(Utf8Path::new(x)), "{x:?}");
        }
    }

    /// The quick check passes only paths already in normal form, and
    /// passes those with `..` components and dotted names.
    #[test]
    fn the_quick_check_passes_only_normal_paths() {
        let paths = [
            "a/../b",
            "../a",
            "../..",
            "a/..",
            "a/.hidden",
            ".a/b",
            "a/..b",
            "a/b.",
            "./a",
            "./../a",
            ".",
            "..",
            "/",
            "/a/../b",
            "a/.",
            "/.",
            "a/./b",
            "./.",
            ".//",
            "a//b",
            "a/",
            "./",
            "//a",
            "a/b/.c/.",
            "a/.../b",
        ];
        for path in paths {
            let normal: Utf8PathBuf = Utf8Path::new(path).components().collect();
            if !may_not_be_normal(path.as_bytes()) {
                assert_eq!(normal.as_str(), path, "{path:?} passed the quick check");
            }
            assert_eq!(normal_text(Utf8Path::new(path)), normal.as_str(), "{path:?}");
        }
        for path in ["a/../b", "../..", "a/.hidden", "a/..", "/a/../b", "a/.../b"] {
            assert!(!may_not_be_normal(path.as_bytes()), "{path:?} took the slow check");
        }
    }

    #[test]
    fn a_map_finds_a_key_by_any_spelling() {
        let mut map = HashMap::new();
        map.insert(PathKey::new("modules/vpc/"), 1);
        for spelling in ["modules/vpc", "modules//vpc", "modules/./vpc/"] {
            assert_eq!(map.get(&*normal_text(Utf8Path::new(spelling))), Some(&1), "{spelling:?}");
        }
        assert_eq!(map.get(&*normal_text(Utf8Path::new("./modules/vpc"))), None);
    }

    #[test]
    fn normal_paths_are_borrowed() {
        for path in ["a/b", "/a/.terraform/b", "./a", ".", "/"] {
            assert!(matches!(normal_text(Utf8Path::new(path)), Cow::Borrowed(_)), "{path:?}");
        }
    }
}
