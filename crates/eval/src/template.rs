//! Templates: strip markers and `<<-` indentation trimming are applied to a
//! flat token list, as the reference's parser does on its tokens, and the
//! list is then evaluated as the reference's template expressions.

use hir::{ExprId, Strip, TemplateFor, TemplateIf, TemplateKind, TemplatePart};
use smol_str::SmolStr;
use value::{Type, Value};

use crate::EvalError;
use crate::expr::Evaluator;

/// A template token, as the reference's `templateToken`s. A heredoc's
/// literal text is one token a line, so strip markers reach only the
/// adjacent line.
#[derive(Debug)]
enum Tok<'a> {
    Lit(String),
    Interp(ExprId, Strip),
    If(ExprId, Strip),
    Else(Strip),
    EndIf(Strip),
    For { key: Option<&'a SmolStr>, value: &'a SmolStr, coll: ExprId, strip: Strip },
    EndFor(Strip),
}

fn flatten<'a>(parts: &'a [TemplatePart], heredoc: bool, out: &mut Vec<Tok<'a>>) {
    for part in parts {
        match part {
            TemplatePart::Literal(text) => {
                if heredoc {
                    for line in text.split_inclusive('\n') {
                        out.push(Tok::Lit(line.to_string()));
                    }
                } else {
                    out.push(Tok::Lit(text.to_string()));
                }
            }
            TemplatePart::Interpolation { expr, strip } => out.push(Tok::Interp(*expr, *strip)),
            TemplatePart::If(directive) => {
                let TemplateIf { cond, then_parts, else_parts, if_strip, else_strip, endif_strip } =
                    &**directive;
                out.push(Tok::If(*cond, *if_strip));
                flatten(then_parts, heredoc, out);
                if let Some(else_parts) = else_parts {
                    out.push(Tok::Else(*else_strip));
                    flatten(else_parts, heredoc, out);
                }
                out.push(Tok::EndIf(*endif_strip));
            }
            TemplatePart::For(directive) => {
                let TemplateFor { key_var, value_var, collection, body, for_strip, endfor_strip } =
                    &**directive;
                out.push(Tok::For {
                    key: key_var.as_ref(),
                    value: value_var,
                    coll: *collection,
                    strip: *for_strip,
                });
                flatten(body, heredoc, out);
                out.push(Tok::EndFor(*endfor_strip));
            }
        }
    }
}

fn strip_of(tok: &Tok<'_>) -> Option<Strip> {
    match tok {
        Tok::Lit(_) => None,
        Tok::Interp(_, s) | Tok::If(_, s) | Tok::Else(s) | Tok::EndIf(s) | Tok::EndFor(s) => Some(*s),
        Tok::For { strip, .. } => Some(*strip),
    }
}

/// The reference's strip pass: `~` after an opener trims the end of the
/// literal token just before it; `~` before a closer trims the start of the
/// literal token just after it.
fn apply_strips(toks: &mut [Tok<'_>]) {
    let mut ltrim_next = false;
    for i in 0..toks.len() {
        let ltrim = std::mem::take(&mut ltrim_next);
        match strip_of(&toks[i]) {
            None => {
                if ltrim && let Tok::Lit(s) = &mut toks[i] {
                    *s = s.trim_start_matches(is_go_space).to_string();
                }
            }
            Some(strip) => {
                if strip.left
                    && i > 0
                    && let Tok::Lit(s) = &mut toks[i - 1]
                {
                    s.truncate(s.trim_end_matches(is_go_space).len());
                }
                ltrim_next = strip.right;
            }
        }
    }
}

/// Go's `unicode.IsSpace`.
fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}')
        || (c > '\u{ff}' && c.is_whitespace())
}

/// `<<-`: removes the smallest indentation of the lines from every line
/// that counts. Spaces are counted in characters (each whitespace
/// character is one grapheme cluster, but for `\r\n`, which never leads a
/// counted line's indentation).
fn flush(toks: &mut [Tok<'_>]) {
    let mut min = usize::MAX;
    let mut newline = true;
    let mut adjust = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if newline {
            newline = false;
            let spaces = match tok {
                Tok::Lit(s) => {
                    let trimmed = s.trim_start_matches(is_go_space);
                    if trimmed.is_empty() && s.ends_with('\n') {
                        usize::MAX
                    } else {
                        adjust.push(i);
                        s[..s.len() - trimmed.len()].chars().count()
                    }
                }
                _ => 0,
            };
            min = min.min(spaces);
        }
        if let Tok::Lit(s) = tok
            && s.ends_with('\n')
        {
            newline = true;
        }
    }
    if min == usize::MAX {
        return;
    }
    for i in adjust {
        if let Tok::Lit(s) = &mut toks[i] {
            let cut: usize = s.chars().take(min).map(char::len_utf8).sum();
            *s = s[cut..].to_string();
        }
    }
}

/// A node of the rebuilt template tree.
enum Node<'a> {
    Lit(String),
    Interp(ExprId),
    If { cond: ExprId, then_nodes: Vec<Node<'a>>, else_nodes: Vec<Node<'a>> },
    For { key: Option<&'a SmolStr>, value: &'a SmolStr, coll: ExprId, body: Vec<Node<'a>> },
}

fn build<'a>(toks: &mut std::iter::Peekable<std::vec::IntoIter<Tok<'a>>>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    while let Some(tok) = toks.peek() {
        if matches!(tok, Tok::Else(_) | Tok::EndIf(_) | Tok::EndFor(_)) {
            return out;
        }
        let Some(tok) = toks.next() else { break };
        match tok {
            Tok::Lit(s) => out.push(Node::Lit(s)),
            Tok::Interp(e, _) => out.push(Node::Interp(e)),
            Tok::If(cond, _) => {
                let then_nodes = build(toks);
                let mut else_nodes = Vec::new();
                if matches!(toks.peek(), Some(Tok::Else(_))) {
                    toks.next();
                    else_nodes = build(toks);
                }
                if matches!(toks.peek(), Some(Tok::EndIf(_))) {
                    toks.next();
                }
                out.push(Node::If { cond, then_nodes, else_nodes });
            }
            Tok::For { key, value, coll, .. } => {
                let body = build(toks);
                if matches!(toks.peek(), Some(Tok::EndFor(_))) {
                    toks.next();
                }
                out.push(Node::For { key, value, coll, body });
            }
            Tok::Else(_) | Tok::EndIf(_) | Tok::EndFor(_) => {}
        }
    }
    out
}

impl Evaluator<'_> {
    pub(crate) fn eval_template(
        &mut self,
        id: ExprId,
        kind: TemplateKind,
        parts: &[TemplatePart],
    ) -> Result<Value, EvalError> {
        let heredoc = matches!(kind, TemplateKind::Heredoc { .. } | TemplateKind::Bare);
        let mut toks = Vec::new();
        flatten(parts, heredoc, &mut toks);
        apply_strips(&mut toks);
        if matches!(kind, TemplateKind::Heredoc { flush: true }) {
            flush(&mut toks);
        }
        if let [Tok::Interp(e, _)] = toks.as_slice() {
            // A template of one interpolation and nothing else passes its
            // value through unconverted.
            return self.eval(*e);
        }
        let nodes = build(&mut toks.into_iter().peekable());
        self.eval_nodes(id, &nodes)
    }

    /// The reference's `TemplateExpr`: every part converted to a string; an
    /// unknown part makes the whole an unknown string, which is never null
    /// and starts with the text before that part (HCL v2.17 and later).
    fn eval_nodes(&mut self, id: ExprId, nodes: &[Node<'_>]) -> Result<Value, EvalError> {
        let mut buf = String::new();
        let mut known = true;
        for node in nodes {
            let (part_id, v) = match node {
                Node::Lit(s) => {
                    if known {
                        self.push_text(id, &mut buf, s)?;
                    }
                    continue;
                }
                Node::Interp(e) => (*e, self.eval(*e)?),
                Node::If { cond, then_nodes, else_nodes } => {
                    (*cond, self.eval_template_if(*cond, then_nodes, else_nodes)?)
                }
                Node::For { key, value, coll, body } => {
                    (*coll, self.eval_template_for(id, *key, value, *coll, body)?)
                }
            };
            if v.is_null() {
                return Err(self.err(
                    part_id,
                    crate::EvalErrorKind::InvalidTemplateInterpolation,
                    "The expression result is null. Cannot include a null value in a string template.",
                ));
            }
            if !v.is_known() {
                known = false;
                continue;
            }
            // A number is written out in full: measure it first.
            if known {
                let text =
                    value::Size { elements: 1, bytes: (buf.len() as u64).saturating_add(v.size().bytes) };
                self.check_growth(id, text)?;
            }
            match value::convert(&v, &Type::String) {
                Ok(s) => match s.as_str() {
                    Some(s) if known => self.push_text(id, &mut buf, s)?,
                    Some(_) => {}
                    None => known = false,
                },
                Err(e) => {
                    return Err(self.err(
                        part_id,
                        crate::EvalErrorKind::InvalidTemplateInterpolation,
                        &format!("Cannot include the given value in a string template: {e}."),
                    ));
                }
            }
        }
        Ok(if known { Value::string(&buf) } else { unknown_with_prefix(&buf) })
    }

    /// Appends `s` to the text of template `id`, unless the text would
    /// then be larger than the limit.
    fn push_text(&self, id: ExprId, buf: &mut String, s: &str) -> Result<(), EvalError> {
        let bytes = (buf.len() as u64).saturating_add(s.len() as u64);
        self.check_growth(id, value::Size { elements: 1, bytes })?;
        buf.push_str(s);
        Ok(())
    }

    fn eval_template_if(
        &mut self,
        cond: ExprId,
        then_nodes: &[Node<'_>],
        else_nodes: &[Node<'_>],
    ) -> Result<Value, EvalError> {
        match self.eval_condition(cond)? {
            Some(true) => self.eval_nodes(cond, then_nodes),
            Some(false) => self.eval_nodes(cond, else_nodes),
            // The reference's conditional of two strings: not null.
            None => Ok(Value::unknown(Type::String).refine_not_null()),
        }
    }

    fn eval_template_for(
        &mut self,
        id: ExprId,
        key: Option<&SmolStr>,
        value_var: &SmolStr,
        coll: ExprId,
        body: &[Node<'_>],
    ) -> Result<Value, EvalError> {
        let c = self.eval(coll)?;
        let Some(elems) = self.for_elements(coll, &c)? else {
            return Ok(Value::unknown(Type::String));
        };
        let mut buf = String::new();
        let mut known = true;
        for (k, v) in elems {
            self.charge(id, 1)?;
            let mark = self.locals.len();
            if let Some(key) = key {
                self.locals.push((key.clone(), k));
            }
            self.locals.push((value_var.clone(), v));
            let r = self.eval_nodes(coll, body);
            self.locals.truncate(mark);
            let r = r?;
            if r.is_null() {
                return Err(self.err(
                    coll,
                    crate::EvalErrorKind::InvalidTemplateInterpolation,
                    "An iteration result is null.",
                ));
            }
            if !r.is_known() {
                known = false;
                continue;
            }
            if let Some(s) = r.as_str() {
                self.push_text(id, &mut buf, s)?;
            }
        }
        Ok(if known { Value::string(&buf) } else { Value::unknown(Type::String) })
    }
}

/// An unknown template result: not null, and starting with the text known
/// before its first unknown part. As the reference, at most the first 128
/// bytes of that text are kept, less what a following character could
/// combine with.
fn unknown_with_prefix(known: &str) -> Value {
    const LIMIT: usize = 128;
    let unknown = Value::unknown(Type::String);
    if known.is_empty() {
        return unknown.refine_not_null();
    }
    let mut end = known.len().min(LIMIT);
    while !known.is_char_boundary(end) {
        end -= 1;
    }
    let cut = end < known.len().min(LIMIT);
    let prefix = value::refine::safe_known_prefix(&known[..end], cut);
    unknown.refine().not_null().string_prefix_full(&prefix).build()
}
