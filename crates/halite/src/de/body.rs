//! Decoding a module's structure (its bodies, blocks and labels) into Rust
//! types: the deserializers behind
//! [`Workspace::decode`](crate::Workspace::decode) and a block's
//! [`Workspace::value_as`](crate::Workspace::value_as). The rules are in
//! the [`crate::de`] documentation; values of attributes go through the
//! [`ValueDeserializer`](super::ValueDeserializer).

use db::module::{ModuleAttribute, ModuleBlock, ModuleBlocks, RangeOf};
use rustc_hash::FxHashMap;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use smol_str::SmolStr;
use value::Value;

use super::{DecodeError, KeyDeserializer, Origin, PathStep, ValueDeserializer};

/// Every attribute's value, or its error in words, by its address in the
/// database.
pub(crate) type Values = FxHashMap<db::module::Address, Result<Value, String>>;

/// The top level of the module decoded into a `T`.
pub(crate) fn decode_body<T: DeserializeOwned>(
    values: &Values,
    structure: &ModuleBlocks,
) -> Result<T, DecodeError> {
    let blocks: Vec<&ModuleBlock> = structure.blocks.iter().collect();
    T::deserialize(BodyDeserializer {
        values,
        labels: &[],
        labels_required: false,
        attributes: &structure.attributes,
        blocks,
        origin: None,
    })
}

/// One block decoded into a `T`; its labels may go to `@` fields but need
/// not, since the block was named by them.
pub(crate) fn decode_block<T: DeserializeOwned>(
    values: &Values,
    block: &ModuleBlock,
) -> Result<T, DecodeError> {
    T::deserialize(BodyDeserializer::of_block(values, block, 0, false))
}

fn origin(block: &ModuleBlock) -> Option<Origin> {
    Some(Origin { file: block.file, location: block.location.clone(), part: RangeOf::Name })
}

fn attribute_origin(attribute: &ModuleAttribute, part: RangeOf) -> Option<Origin> {
    Some(Origin { file: attribute.file, location: attribute.location.clone(), part })
}

/// A body: the top level, or a block's with the labels the decoding has
/// not taken yet.
struct BodyDeserializer<'de> {
    values: &'de Values,
    labels: &'de [SmolStr],
    /// Whether labels left over (with no `@` field to go to) are an error.
    labels_required: bool,
    attributes: &'de [ModuleAttribute],
    blocks: Vec<&'de ModuleBlock>,
    /// The block's header, for errors about the block as a whole.
    origin: Option<Origin>,
}

impl<'de> BodyDeserializer<'de> {
    fn of_block(
        values: &'de Values,
        block: &'de ModuleBlock,
        consumed: usize,
        labels_required: bool,
    ) -> Self {
        BodyDeserializer {
            values,
            labels: &block.labels[consumed.min(block.labels.len())..],
            labels_required,
            attributes: &block.attributes,
            blocks: block.blocks.iter().collect(),
            origin: origin(block),
        }
    }

    fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError::new(message).at(self.origin.clone())
    }

    /// The body's entries: label fields (for the `@` fields of `fields`),
    /// then attributes, then block types.
    fn entries(&self, fields: &[&'static str]) -> Result<Vec<(String, Entry<'de>)>, DecodeError> {
        let mut entries = Vec::new();
        let label_fields: Vec<&str> = fields.iter().copied().filter(|field| field.starts_with('@')).collect();
        if self.labels.len() > label_fields.len() && self.labels_required {
            let labels: Vec<String> = self.labels.iter().map(|label| format!("{label:?}")).collect();
            return Err(self.error(format!(
                "the block's labels {} have no field to go to: name one with `@` (`#[serde(rename = \"@name\")]`) per label, or decode the block type as a map keyed by label",
                labels.join(", ")
            )));
        }
        for (field, label) in label_fields.iter().zip(self.labels) {
            entries.push((field.to_string(), Entry::Label(label)));
        }
        for attribute in self.attributes {
            entries.push((attribute.name.to_string(), Entry::Attribute(attribute)));
        }
        for (type_name, blocks) in crate::workspace::group_by_type(self.blocks.iter().copied()) {
            if self.attributes.iter().any(|attribute| attribute.name == type_name) {
                return Err(DecodeError::new(format!(
                    "`{type_name}` is both an attribute and a block type in this body"
                ))
                .at(origin(blocks[0])));
            }
            entries.push((type_name.to_string(), Entry::Blocks(blocks)));
        }
        Ok(entries)
    }

    fn visit_entries<V: Visitor<'de>>(
        self,
        fields: &[&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let entries = self.entries(fields)?;
        let origin = self.origin.clone();
        visitor
            .visit_map(BodyAccess { values: self.values, entries: entries.into_iter(), current: None })
            .map_err(|error| error.at(origin))
    }
}

enum Entry<'de> {
    Label(&'de SmolStr),
    Attribute(&'de ModuleAttribute),
    Blocks(Vec<&'de ModuleBlock>),
}

macro_rules! not_a_body {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, DecodeError> {
            Err(self.error("expected a value, found a block"))
        })*
    };
}

impl<'de> de::Deserializer<'de> for BodyDeserializer<'de> {
    type Error = DecodeError;

    not_a_body!(
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
        deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_seq deserialize_identifier
    );

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if !self.labels.is_empty() && self.labels_required {
            return Err(self.error(
                "a block with labels left is decoded as a map: take its labels as keys of a map of blocks, or as `@` fields of a struct",
            ));
        }
        self.visit_entries(&[], visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.visit_entries(fields, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.attributes.is_empty() && self.blocks.is_empty() {
            visitor.visit_unit()
        } else {
            Err(self.error("expected an empty block"))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, DecodeError> {
        Err(self.error("expected a value naming a variant, found a block"))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }
}

/// A body's entries as a map.
struct BodyAccess<'de> {
    values: &'de Values,
    entries: std::vec::IntoIter<(String, Entry<'de>)>,
    current: Option<(String, Entry<'de>)>,
}

impl<'de> de::MapAccess<'de> for BodyAccess<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        let Some((key, entry)) = self.entries.next() else { return Ok(None) };
        let at = match &entry {
            Entry::Label(_) => None,
            Entry::Attribute(attribute) => attribute_origin(attribute, RangeOf::Name),
            Entry::Blocks(blocks) => origin(blocks[0]),
        };
        let deserializer: de::value::StrDeserializer<'_, DecodeError> = de::value::StrDeserializer::new(&key);
        let decoded = seed
            .deserialize(deserializer)
            .map_err(|error| error.within(PathStep::Key(key.clone())).at(at))?;
        self.current = Some((key, entry));
        Ok(Some(decoded))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        let Some((key, entry)) = self.current.take() else {
            return Err(DecodeError::new("a map's value was asked for before its key"));
        };
        let result = match entry {
            Entry::Label(label) => seed.deserialize(KeyDeserializer(label.as_str())),
            Entry::Attribute(attribute) => {
                let at = attribute_origin(attribute, RangeOf::Value);
                match self.values.get(&attribute.address) {
                    Some(Ok(value)) => {
                        seed.deserialize(ValueDeserializer::new(value)).map_err(|error| error.at(at))
                    }
                    Some(Err(message)) => Err(DecodeError::new(message.clone()).at(at)),
                    None => Err(DecodeError::new("the attribute was not evaluated").at(at)),
                }
            }
            Entry::Blocks(blocks) => {
                seed.deserialize(BlocksDeserializer { values: self.values, blocks, consumed: 0 })
            }
        };
        result.map_err(|error| error.within(PathStep::Key(key)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// The blocks of one type in a body, their first `consumed` labels taken
/// as keys of maps.
struct BlocksDeserializer<'de> {
    values: &'de Values,
    blocks: Vec<&'de ModuleBlock>,
    consumed: usize,
}

impl<'de> BlocksDeserializer<'de> {
    fn one(self) -> Result<BodyDeserializer<'de>, DecodeError> {
        match self.blocks.as_slice() {
            [block] => Ok(BodyDeserializer::of_block(self.values, block, self.consumed, true)),
            [first, second, ..] => Err(DecodeError::new(format!(
                "a second `{}` block where the type takes one (a sequence or a map takes several)",
                first.type_name
            ))
            .at(origin(second))),
            [] => Err(DecodeError::new("no block")),
        }
    }

    fn visit_labels<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let mut groups: Vec<(&'de str, Vec<&'de ModuleBlock>)> = Vec::new();
        for &block in &self.blocks {
            let Some(label) = block.labels.get(self.consumed) else {
                return Err(DecodeError::new(format!(
                    "a `{}` block with {} label(s), where the type takes its label number {} as a map's key",
                    block.type_name,
                    block.labels.len(),
                    self.consumed + 1
                ))
                .at(origin(block)));
            };
            match groups.iter_mut().find(|(it, _)| *it == label.as_str()) {
                Some((_, group)) => group.push(block),
                None => groups.push((label.as_str(), vec![block])),
            }
        }
        visitor.visit_map(LabelAccess {
            values: self.values,
            groups: groups.into_iter(),
            current: None,
            consumed: self.consumed + 1,
        })
    }
}

impl<'de> de::Deserializer<'de> for BlocksDeserializer<'de> {
    type Error = DecodeError;

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf identifier enum
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.blocks.iter().all(|block| block.labels.len() > self.consumed) {
            self.visit_labels(visitor)
        } else if self.blocks.len() > 1 {
            self.deserialize_seq(visitor)
        } else {
            self.one()?.deserialize_any(visitor)
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.visit_labels(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_seq(BlockSeq {
            values: self.values,
            blocks: self.blocks.into_iter().enumerate(),
            consumed: self.consumed,
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.one()?.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.one()?.deserialize_unit(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.one()?.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }
}

/// Blocks as a sequence, in source order.
struct BlockSeq<'de> {
    values: &'de Values,
    blocks: std::iter::Enumerate<std::vec::IntoIter<&'de ModuleBlock>>,
    consumed: usize,
}

impl<'de> de::SeqAccess<'de> for BlockSeq<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeError> {
        let Some((index, block)) = self.blocks.next() else { return Ok(None) };
        seed.deserialize(BodyDeserializer::of_block(self.values, block, self.consumed, true))
            .map(Some)
            .map_err(|error| error.within(PathStep::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.blocks.len())
    }
}

/// Blocks grouped by their next label, as a map.
struct LabelAccess<'de> {
    values: &'de Values,
    groups: std::vec::IntoIter<(&'de str, Vec<&'de ModuleBlock>)>,
    current: Option<(&'de str, Vec<&'de ModuleBlock>)>,
    consumed: usize,
}

impl<'de> de::MapAccess<'de> for LabelAccess<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        let Some((label, blocks)) = self.groups.next() else { return Ok(None) };
        let at = origin(blocks[0]);
        let key = seed
            .deserialize(KeyDeserializer(label))
            .map_err(|error| error.within(PathStep::Key(label.to_string())).at(at))?;
        self.current = Some((label, blocks));
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        let Some((label, blocks)) = self.current.take() else {
            return Err(DecodeError::new("a map's value was asked for before its key"));
        };
        seed.deserialize(BlocksDeserializer { values: self.values, blocks, consumed: self.consumed })
            .map_err(|error| error.within(PathStep::Key(label.to_string())))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.groups.len())
    }
}
