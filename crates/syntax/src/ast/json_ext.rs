//! Hand-written accessors of the JSON syntax's nodes: a member's name and
//! value are both `JsonValue`s in the grammar, so they are told apart by
//! position, and strings, numbers and keywords are read from their text.

use crate::{
    SyntaxKind, SyntaxToken, TextRange,
    ast::{self, AstChildren, AstNode, support},
};

impl ast::JsonDocument {
    /// The document's one value; `None` for an empty or junk-only text.
    pub fn value(&self) -> Option<ast::JsonValue> {
        self.json_value()
    }
}

impl ast::JsonValue {
    /// The range the reference calls a value's start range: the opening
    /// brace or bracket of an object or array, the whole token otherwise.
    pub fn start_range(&self) -> TextRange {
        let open = match self {
            ast::JsonValue::JsonObject(object) => object.l_curly_token(),
            ast::JsonValue::JsonArray(array) => array.l_brack_token(),
            _ => None,
        };
        open.map_or_else(|| self.syntax().text_range(), |token| token.text_range())
    }
}

impl ast::JsonObject {
    /// The members in source order, repeated names included.
    pub fn members(&self) -> AstChildren<ast::JsonMember> {
        self.json_members()
    }

    /// The closing brace, if the object has one.
    pub fn close_token(&self) -> Option<SyntaxToken> {
        self.r_curly_token()
    }
}

impl ast::JsonMember {
    /// The property name: the member's first child when it is a string.
    pub fn name(&self) -> Option<ast::JsonString> {
        self.name_value().and_then(|name| match name {
            ast::JsonValue::JsonString(string) => Some(string),
            _ => None,
        })
    }

    /// Whatever stands in the name's place, a string or (after an error)
    /// another value.
    pub fn name_value(&self) -> Option<ast::JsonValue> {
        support::children::<ast::JsonValue>(self.syntax()).next()
    }

    /// The value after the colon: the member's second value child.
    pub fn value(&self) -> Option<ast::JsonValue> {
        support::children::<ast::JsonValue>(self.syntax()).nth(1)
    }
}

impl ast::JsonArray {
    /// The elements in source order.
    pub fn values(&self) -> AstChildren<ast::JsonValue> {
        self.json_values()
    }
}

impl ast::JsonString {
    /// The literal as written, quotes and escapes included.
    pub fn literal(&self) -> String {
        self.syntax().text().to_string()
    }

    /// The decoded value; `None` if the literal is not a valid JSON string
    /// (the parser reported it).
    pub fn value(&self) -> Option<String> {
        let token = self.string_token()?;
        crate::json::decode_string(token.text()).ok()
    }
}

impl ast::JsonNumber {
    /// The number exactly as written.
    pub fn text(&self) -> String {
        self.syntax().text().to_string()
    }

    /// Whether the text is a number by JSON's grammar (the parser reported
    /// it if not).
    pub fn is_valid(&self) -> bool {
        crate::json::is_valid_number(&self.text())
    }
}

/// The three JSON keywords.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonKeywordKind {
    True,
    False,
    Null,
}

impl ast::JsonKeyword {
    /// Which keyword this is; `None` for any other word (an error).
    pub fn kind(&self) -> Option<JsonKeywordKind> {
        match self.keyword_token()?.text() {
            "true" => Some(JsonKeywordKind::True),
            "false" => Some(JsonKeywordKind::False),
            "null" => Some(JsonKeywordKind::Null),
            _ => None,
        }
    }
}

impl SyntaxKind {
    /// Whether a kind is one of the JSON syntax's value nodes.
    pub fn is_json_value(self) -> bool {
        ast::JsonValue::can_cast(self)
    }
}
