//! The layout rules: indentation, spaces between tokens, and alignment.
//!
//! The reference decides everything line by line, never from the tree, and
//! agreeing with it byte for byte means deciding the same way. A line is the
//! tokens up to and including a line break (a newline, or a line comment,
//! which owns its break). Each line is cut into up to three cells:
//!
//! - the *lead*, everything not in the other two;
//! - the *assign* cell, from the line's first `=` (not its first token) to
//!   the end, but only when the brackets from that `=` on balance, so that
//!   `x = {` opening a multi-line value is no assignment and breaks a run of
//!   aligned lines;
//! - the *comment* cell, a trailing comment on a line that has something
//!   before it.
//!
//! Then, in this order: the first token of each line is indented by the
//! bracket nesting of the lines before it; the gap between each pair of
//! neighbours inside a cell is one space or none, by the pairwise rules of
//! [`space_between`]; and the `=` of consecutive lines with an assign cell,
//! then the comments of consecutive lines with a comment cell, are aligned
//! one column past the widest line of the run. Widths count grapheme
//! clusters and spaces, as the reference does.
//!
//! Line breaks are never added or removed, and heredoc and template text is
//! part of its tokens, so it is never touched.

use crate::tokens::{Class, Tok};

/// One line's cells as token index ranges: the lead is `start..assign`, the
/// assign cell `assign..comment` (empty when the line has none) and the
/// comment cell `comment..end` (empty or one token).
#[derive(Clone, Copy)]
struct Line {
    start: u32,
    assign: u32,
    comment: u32,
    end: u32,
}

impl Line {
    fn has_assign(&self) -> bool {
        self.assign < self.comment
    }

    fn has_comment(&self) -> bool {
        self.comment < self.end
    }
}

/// Decides the spaces before every token of `toks`.
pub(crate) fn layout(toks: &mut [Tok<'_>]) {
    let lines = split_lines(toks);
    indent(toks, &lines);
    space(toks, &lines);
    align(toks, &lines);
}

/// Cuts the stream into lines and each line into its cells.
fn split_lines(toks: &[Tok<'_>]) -> Vec<Line> {
    let mut lines = Vec::with_capacity(toks.len() / 4 + 1);
    let mut start = 0;
    while start < toks.len() {
        let end =
            toks[start..].iter().position(|t| t.class.ends_line()).map_or(toks.len(), |i| start + i + 1);
        lines.push(cells(toks, start, end));
        start = end;
    }
    lines
}

fn cells(toks: &[Tok<'_>], start: usize, end: usize) -> Line {
    let last = &toks[end - 1];
    let comment = if end - start > 1 && matches!(last.class, Class::Comment | Class::LineComment) {
        end - 1
    } else {
        end
    };
    // Only the first `=` is considered: if what follows it does not balance,
    // the line has no assign cell at all, even if a later `=` would.
    let assign = toks[start + 1..comment]
        .iter()
        .position(|t| t.class == Class::Equal)
        .map(|i| start + 1 + i)
        .filter(|&eq| toks[eq..comment].iter().map(|t| t.class.bracket_change()).sum::<i32>() == 0)
        .unwrap_or(comment);
    // Indices fit in u32: the stream is shorter than the text, and the tree
    // cannot hold more than u32::MAX bytes.
    Line { start: start as u32, assign: assign as u32, comment: comment as u32, end: end as u32 }
}

/// Indents each line by twice the number of bracket groups still open.
///
/// A line that opens more brackets than it closes pushes one indent level,
/// remembering how many brackets it opened; a line that closes more pops
/// levels until its surplus is used up, so one line closing what two lines
/// opened dedents twice, and a line that closes only part of a level's
/// brackets leaves that level in place. The line's own indentation is taken
/// before its opening brackets count and after its closing ones.
fn indent(toks: &mut [Tok<'_>], lines: &[Line]) {
    let mut levels: Vec<i32> = Vec::with_capacity(16);
    for line in lines {
        let (start, assign, comment) = (line.start as usize, line.assign as usize, line.comment as usize);
        if toks[start].class == Class::Newline {
            toks[start].spaces = 0;
            continue;
        }
        // In the lead, counting stops at a heredoc's opening: its template
        // text may hold anything. In the assign cell it does not stop; the
        // reference counts there too, and its sequences balance anyway.
        let mut net = 0;
        for t in &toks[start..assign] {
            net += t.class.bracket_change();
            if t.class == Class::OHeredoc {
                break;
            }
        }
        net += toks[assign..comment].iter().map(|t| t.class.bracket_change()).sum::<i32>();

        if net < 0 {
            let mut closed = -net;
            while closed > 0 {
                let Some(top) = levels.last_mut() else { break };
                if closed >= *top {
                    closed -= *top;
                    levels.pop();
                } else {
                    *top -= closed;
                    closed = 0;
                }
            }
        }
        toks[start].spaces = 2 * u32::try_from(levels.len()).unwrap_or(u32::MAX / 2);
        if net > 0 {
            levels.push(net);
        }
    }
}

/// Sets the gap between neighbours within the lead and within the assign
/// cell. The gaps between cells are the alignment's business; the assign
/// cell starts one space after the lead until then.
fn space(toks: &mut [Tok<'_>], lines: &[Line]) {
    for line in lines {
        let (start, assign, comment) = (line.start as usize, line.assign as usize, line.comment as usize);
        space_cell(&mut toks[start..assign]);
        if line.has_assign() {
            toks[assign].spaces = 1;
            space_cell(&mut toks[assign..comment]);
        }
    }
}

fn space_cell(cell: &mut [Tok<'_>]) {
    for i in 1..cell.len() {
        let before = if i >= 2 { Some(&cell[i - 2]) } else { None };
        let spaced = space_between(before, &cell[i - 1], &cell[i])
            || would_join_number(&cell[i - 1], &cell[i], cell.get(i + 1));
        cell[i].spaces = u32::from(spaced);
    }
}

/// Whether closing the gap before a `.` would make one number of two:
/// `local.l.1 .0` is the legacy index `1` followed by `.0`, but written
/// `local.l.1.0` it lexes as the number `1.0`, which is an error. The
/// reference closes that gap and so turns a valid file into an invalid one;
/// here the space stays. Only a number of digits alone can take a fraction,
/// and only a number after the dot gives it one.
fn would_join_number(number: &Tok<'_>, dot: &Tok<'_>, after: Option<&Tok<'_>>) -> bool {
    number.class == Class::Number
        && number.text.bytes().all(|b| b.is_ascii_digit())
        && dot.class == Class::Dot
        && after.is_some_and(|t| t.class == Class::Number)
}

/// Whether one space separates `subject` from the token `after` it, given
/// the token `before` the subject in the same cell (none at its start).
/// The rules are tried in order and the first that applies decides.
fn space_between(before: Option<&Tok<'_>>, subject: &Tok<'_>, after: &Tok<'_>) -> bool {
    use Class::*;
    let (s, a) = (subject.class, after.class);
    match () {
        // Nothing trails a line.
        _ if a == Newline => false,
        // A call's name touches its parenthesis; traversal dots touch both
        // neighbours; lists and argument expansions touch what precedes.
        _ if s == Ident && a == OParen => false,
        // Nor are a namespaced name's parts split: `provider::aws::f(…)`.
        _ if (s == Ident && a == Colon2) || (s == Colon2 && a == Ident) => false,
        _ if s == Dot || a == Dot => false,
        _ if a == Comma || a == Ellipsis => false,
        _ if s == Comma => true,
        // Template text and the quotes and markers around it are written as
        // they are: no gap is ever added inside a template's literal parts.
        _ if matches!(s, Lit | OQuote | OHeredoc) || matches!(a, Lit | CQuote | CHeredoc) => false,
        // `in` of a `for` followed by a tuple: `for x in [a]` rather than
        // what the index rule below would make of it, `in[a]`.
        _ if s == Ident && subject.text == "in" && before.is_some_and(|b| b.class == Ident) => true,
        // An index touches the value it indexes.
        _ if a == OBrack && (matches!(s, Ident | Number) || s.bracket_change() < 0) => false,
        _ if s == Bang => false,
        // A minus after something that cannot end an operand is a negation,
        // which touches its operand; otherwise it is a subtraction.
        _ if s == Minus => !matches!(
            before.map(|b| b.class),
            None | Some(
                OParen
                    | OBrace
                    | OBrack
                    | Equal
                    | Colon
                    | Comma
                    | Question
                    | Arith
                    | Minus
                    | Compare
                    | Logic
                    | Bang
            )
        ),
        // Braces are padded inside, except when empty: `{ a = 1 }`, `{}`.
        _ if s == OBrace || a == CBrace => !(s == OBrace && a == CBrace),
        // An interpolation holding an object constructor keeps the braces
        // apart, `${ {} }`, and sequences written back to back touch.
        _ if s == TemplateOpen && a == OBrace => true,
        _ if s == CBrace && a == TemplateClose => true,
        _ if s == TemplateClose && a == TemplateOpen => false,
        // Nothing pads the inside of other brackets.
        _ if s.bracket_change() > 0 => false,
        _ if a.bracket_change() < 0 => false,
        _ => true,
    }
}

/// Aligns the `=` of runs of consecutive lines with assign cells, then the
/// trailing comments of runs of consecutive lines with comment cells (whose
/// widths include the just-aligned assignments).
fn align(toks: &mut [Tok<'_>], lines: &[Line]) {
    let mut run_start = 0;
    while run_start < lines.len() {
        if !lines[run_start].has_assign() {
            run_start += 1;
            continue;
        }
        let run_end =
            lines[run_start..].iter().position(|l| !l.has_assign()).map_or(lines.len(), |i| run_start + i);
        let run = &lines[run_start..run_end];
        let widest = run.iter().map(|l| width(&toks[l.start as usize..l.assign as usize])).max().unwrap_or(0);
        for l in run {
            let w = width(&toks[l.start as usize..l.assign as usize]);
            toks[l.assign as usize].spaces = widest - w + 1;
        }
        run_start = run_end;
    }

    let mut run_start = 0;
    while run_start < lines.len() {
        if !lines[run_start].has_comment() {
            run_start += 1;
            continue;
        }
        let run_end =
            lines[run_start..].iter().position(|l| !l.has_comment()).map_or(lines.len(), |i| run_start + i);
        let run = &lines[run_start..run_end];
        let widest =
            run.iter().map(|l| width(&toks[l.start as usize..l.comment as usize])).max().unwrap_or(0);
        for l in run {
            let w = width(&toks[l.start as usize..l.comment as usize]);
            toks[l.comment as usize].spaces = widest - w + 1;
        }
        run_start = run_end;
    }
}

/// The columns a run of tokens takes: its spaces plus the grapheme clusters
/// of its text. (Meaningless across a line break, as in the reference, but
/// computed the same way for the same result.)
fn width(toks: &[Tok<'_>]) -> u32 {
    let mut total: u32 = 0;
    for t in toks {
        let w = graphemes(t.text) + graphemes(t.tail);
        total = total.saturating_add(t.spaces).saturating_add(w);
    }
    total
}

/// Grapheme clusters, counted by the rules of Unicode 15.0 (the pinned
/// unicode-segmentation), which are the reference's (Unicode 13's). Only the
/// character data differs between the two versions: a character assigned
/// after Unicode 13 may count differently, a difference no real file has
/// shown.
fn graphemes(text: &str) -> u32 {
    let n = if text.is_ascii() {
        // One cluster per byte, except that `\r\n` is a single cluster.
        text.len() - text.as_bytes().windows(2).filter(|w| w == b"\r\n").count()
    } else {
        unicode_segmentation::UnicodeSegmentation::graphemes(text, true).count()
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}
