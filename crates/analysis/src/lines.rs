//! Byte offsets to the lines and columns people read, and back.

use syntax::TextSize;

/// A position as people read it: both 1-based, the column counting Unicode
/// scalar values (so `é` is one column whatever its bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// Where the lines of a text start, and where its multi-byte characters are,
/// so that a position costs a binary search rather than a scan of the text.
///
/// Lines end at `\n`; in a CRLF file the `\r` is the last character of its
/// line, so columns before it are the same as in the LF version.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineIndex {
    /// The offset of the first byte of every line; the first is 0.
    line_starts: Vec<TextSize>,
    /// Every character of more than one byte: its offset and its length.
    /// Most configuration text is ASCII, so this is usually empty.
    wide_chars: Vec<(TextSize, u8)>,
    /// For each of `wide_chars` and one past the last, the bytes the
    /// characters before it have beyond one each: a column is a difference
    /// of two of these, so a line of a million wide characters costs a
    /// binary search too.
    extra_bytes_before: Vec<u32>,
    len: TextSize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![TextSize::from(0)];
        let mut wide_chars = Vec::new();
        for (offset, c) in text.char_indices() {
            // Texts longer than 4 GiB cannot be trees either (rowan offsets
            // are u32); saturating keeps the index usable rather than wrong
            // by wrapping.
            let offset = TextSize::try_from(offset).unwrap_or(TextSize::from(u32::MAX));
            if c == '\n' {
                line_starts.push(offset + TextSize::from(1));
            } else if c.len_utf8() > 1 {
                wide_chars.push((offset, c.len_utf8() as u8));
            }
        }
        let len = TextSize::try_from(text.len()).unwrap_or(TextSize::from(u32::MAX));
        let mut extra_bytes_before = Vec::with_capacity(wide_chars.len() + 1);
        let mut extra = 0u32;
        extra_bytes_before.push(0);
        for &(_, len) in &wide_chars {
            extra = extra.saturating_add(u32::from(len) - 1);
            extra_bytes_before.push(extra);
        }
        LineIndex { line_starts, wide_chars, extra_bytes_before, len }
    }

    /// The line and column of `offset`. An offset inside a multi-byte
    /// character is that character's position. An offset past the end counts
    /// one column per byte past the end of the last line: a file that is not
    /// UTF-8 keeps only its valid prefix as text, and this places the end of
    /// its first bad bytes where an editor would show them.
    pub fn line_col(&self, offset: TextSize) -> LineCol {
        let past_end = u32::from(offset.max(self.len) - self.len);
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        // The wide characters of the line before `offset`.
        let first = self.wide_chars.partition_point(|&(start, _)| start < line_start);
        let last = self.wide_chars.partition_point(|&(start, _)| start < offset);
        let extra = |from: usize, to: usize| self.extra_bytes_before[to] - self.extra_bytes_before[from];
        let column = match self.wide_chars[first..last].last() {
            // A character that ends after `offset` contains it: the position
            // is the character's own column.
            Some(&(start, len)) if start + TextSize::from(u32::from(len)) > offset => {
                u32::from(start - line_start) - extra(first, last - 1)
            }
            _ => u32::from(offset - line_start) - extra(first, last),
        };
        LineCol { line: line as u32 + 1, column: column.saturating_add(past_end).saturating_add(1) }
    }

    /// The offset of a line and column, or `None` when the line does not
    /// exist or the column is past the line's end (its newline included).
    pub fn offset(&self, line_col: LineCol) -> Option<TextSize> {
        let line = usize::try_from(line_col.line).ok()?.checked_sub(1)?;
        let line_start = *self.line_starts.get(line)?;
        // The last position of a line is its newline (or the end of the text).
        let line_end = match self.line_starts.get(line + 1) {
            Some(&next) => next - TextSize::from(1),
            None => self.len,
        };
        let mut column = line_col.column.checked_sub(1)?;
        let mut offset = line_start;
        let first = self.wide_chars.partition_point(|&(start, _)| start < line_start);
        let mut wide = self.wide_chars[first..].iter().take_while(|&&(start, _)| start < line_end).peekable();
        while column > 0 {
            if offset >= line_end {
                return None;
            }
            let step = match wide.peek() {
                Some(&&(start, len)) if start == offset => {
                    wide.next();
                    u32::from(len)
                }
                _ => 1,
            };
            offset += TextSize::from(step);
            column -= 1;
        }
        Some(offset)
    }

    /// The number of lines; a text ending in a newline has an empty last line.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, offset: u32, line: u32, column: u32) {
        let index = LineIndex::new(text);
        let line_col = LineCol { line, column };
        assert_eq!(index.line_col(offset.into()), line_col, "line_col of {offset} in {text:?}");
        assert_eq!(index.offset(line_col), Some(offset.into()), "offset of {line_col:?} in {text:?}");
    }

    #[test]
    fn ascii() {
        check("", 0, 1, 1);
        check("a = 1\nb = 2\n", 0, 1, 1);
        check("a = 1\nb = 2\n", 4, 1, 5);
        check("a = 1\nb = 2\n", 5, 1, 6);
        check("a = 1\nb = 2\n", 6, 2, 1);
        check("a = 1\nb = 2\n", 12, 3, 1);
    }

    #[test]
    fn crlf() {
        let text = "a = 1\r\nb = 2\r\n";
        check(text, 5, 1, 6);
        check(text, 6, 1, 7);
        check(text, 7, 2, 1);
        check(text, 11, 2, 5);
    }

    #[test]
    fn columns_count_scalar_values() {
        // "é" is two bytes, "😀" four; the column after each is one more.
        let text = "x = \"é😀z\"\ny = \"😀\"";
        check(text, 5, 1, 6);
        check(text, 7, 1, 7);
        check(text, 11, 1, 8);
        check(text, 12, 1, 9);
        check(text, 14, 2, 1);
        check(text, 19, 2, 6);
        check(text, 23, 2, 7);
    }

    #[test]
    fn a_long_line_of_wide_characters() {
        let text = format!("{}x\n{}", "é".repeat(1000), "😀".repeat(3));
        let index = LineIndex::new(&text);
        assert_eq!(index.line_col(2000.into()), LineCol { line: 1, column: 1001 });
        assert_eq!(index.line_col(1999.into()), LineCol { line: 1, column: 1000 });
        assert_eq!(index.line_col(2001.into()), LineCol { line: 1, column: 1002 });
        assert_eq!(index.line_col(2006.into()), LineCol { line: 2, column: 2 });
        assert_eq!(index.line_col(2007.into()), LineCol { line: 2, column: 2 });
        assert_eq!(index.line_col(2014.into()), LineCol { line: 2, column: 4 });
    }

    #[test]
    fn out_of_range() {
        let index = LineIndex::new("ab\ncd");
        assert_eq!(index.line_col(5.into()), LineCol { line: 2, column: 3 });
        assert_eq!(index.line_col(7.into()), LineCol { line: 2, column: 5 });
        // Inside "é" (bytes 1..3): the column of the character itself.
        assert_eq!(LineIndex::new("aé").line_col(2.into()), LineCol { line: 1, column: 2 });
        assert_eq!(index.offset(LineCol { line: 3, column: 1 }), None);
        assert_eq!(index.offset(LineCol { line: 1, column: 3 }), Some(2.into()));
        assert_eq!(index.offset(LineCol { line: 1, column: 4 }), None);
        assert_eq!(index.offset(LineCol { line: 2, column: 4 }), None);
        assert_eq!(index.offset(LineCol { line: 1, column: u32::MAX }), None);
        assert_eq!(index.offset(LineCol { line: 0, column: 1 }), None);
        assert_eq!(index.offset(LineCol { line: 1, column: 0 }), None);
        assert_eq!(index.line_count(), 2);
    }
}
