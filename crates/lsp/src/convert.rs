//! Between the protocol's terms and Halite's: `file://` URIs and paths,
//! positions in UTF-16 code units and byte offsets.

use std::str::FromStr;

use camino::{Utf8Path, Utf8PathBuf};
use lsp_types::{Position, Range, Uri};
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use syntax::{TextRange, TextSize};

/// The path a `file://` URI names, or `None` for another scheme or a path
/// that is not UTF-8.
pub fn uri_to_path(uri: &Uri) -> Option<Utf8PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///x` has an empty authority; `file://localhost/x` names this
    // machine too.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let decoded = percent_decode_str(rest).decode_utf8().ok()?;
    Some(normalize(Utf8Path::new(&decoded)))
}

/// `path` with `.` removed and `..` resolved lexically.
fn normalize(path: &Utf8Path) -> Utf8PathBuf {
    let mut out = Utf8PathBuf::new();
    for component in path.components() {
        match component {
            camino::Utf8Component::CurDir => {}
            camino::Utf8Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_str()),
        }
    }
    out
}

/// What a path segment may hold unescaped besides letters and digits.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The `file://` URI of an absolute path.
pub fn path_to_uri(path: &Utf8Path) -> Uri {
    let text = format!("file://{}", utf8_percent_encode(path.as_str(), PATH));
    Uri::from_str(&text).unwrap_or_else(|_| Uri::from_str("file:///").unwrap_or_else(|_| unreachable!()))
}

/// Line starts of a text, to turn byte offsets into the protocol's
/// positions (lines and UTF-16 code units) and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text, and back to a
    /// character's start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let character: usize = self.text[self.starts[line]..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(self.position(range.start().into()), self.position(range.end().into()))
    }

    /// The byte offset of a position, or `None` past the text's end or
    /// past its line's end.
    pub fn offset(&self, position: Position) -> Option<usize> {
        let start = *self.starts.get(position.line as usize)?;
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |&next| next - 1);
        let mut units = 0usize;
        for (at, ch) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return Some(start + at);
            }
            units += ch.len_utf16();
        }
        (units >= position.character as usize).then_some(end)
    }

    /// The byte offset of a position, a position past its line's end taken
    /// as the line's end and one past the text as its end (for edits).
    pub fn offset_clamped(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |&next| next - 1);
        let mut units = 0usize;
        for (at, ch) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + at;
            }
            units += ch.len_utf16();
        }
        end
    }

    pub fn text_range(&self, range: Range) -> Option<TextRange> {
        let start = self.offset(range.start)?;
        let end = self.offset(range.end)?;
        (start <= end).then(|| TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let index = LineIndex::new("a = \"é𝄞\"\nb = 1\n");
        // `𝄞` is two UTF-16 units and four bytes.
        let after = "a = \"é𝄞".len();
        assert_eq!(index.position(after), Position::new(0, 8));
        assert_eq!(index.offset(Position::new(0, 8)), Some(after));
        assert_eq!(index.offset(Position::new(1, 2)), Some("a = \"é𝄞\"\nb ".len()));
        assert_eq!(index.offset(Position::new(1, 40)), None);
        assert_eq!(index.offset(Position::new(9, 0)), None);
        assert_eq!(index.offset_clamped(Position::new(1, 40)), "a = \"é𝄞\"\nb = 1".len());
    }

    #[test]
    fn uris_round_trip() {
        let path = Utf8Path::new("/tmp/a b/mäin#1.tf");
        let uri = path_to_uri(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/m%C3%A4in%231.tf");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()), None);
    }
}
