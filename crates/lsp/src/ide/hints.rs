//! Inlay hints (the evaluated values of locals, `count` and `for_each`)
//! and signature help for a function call being typed.

use db::{
    File,
    module::{self, Attr, DeclarationKind, RangeOf},
};
use syntax::{AstNode, SyntaxKind, TextRange, TextSize, ast};

use super::{Snapshot, signature_parts};

/// The longest value an inlay hint shows, in characters of its JSON text:
/// a longer one would push the line out of sight, and hover shows it.
pub const MAX_HINT: usize = 40;

/// A value shown after an attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueHint {
    /// Where it goes: the end of the attribute's expression.
    pub at: TextSize,
    /// The value's JSON text.
    pub value: String,
}

/// The signature of the call around a position, and which of its
/// parameters the position is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureAt {
    /// `name(param type, …)`.
    pub label: String,
    /// Each parameter's range in `label` (in bytes; the server counts
    /// them in UTF-16 units).
    pub params: Vec<(usize, usize)>,
    /// The parameter at the position (the variadic one for any argument
    /// past the others), if the function takes any.
    pub active: Option<usize>,
}

impl Snapshot {
    /// The values of the locals and of the `count` and `for_each`
    /// arguments declared in `within` of `file`: those evaluated to a value
    /// known whole, whose JSON text is at most [`MAX_HINT`] characters and
    /// says more than the expression as written.
    pub fn value_hints(&self, file: File, within: TextRange) -> Vec<ValueHint> {
        let db = &self.db;
        let Some(module) = self.module_of(file) else { return Vec::new() };
        let Some(declarations) = file.declarations(db).clone() else { return Vec::new() };
        let text = file.text(db);
        let mut out = Vec::new();
        for declaration in &declarations.declarations {
            let wanted = match declaration.kind {
                DeclarationKind::Local => true,
                DeclarationKind::BlockAttribute => declaration
                    .address
                    .smol_segments()
                    .last()
                    .is_some_and(|it| it == "count" || it == "for_each"),
                _ => false,
            };
            if !wanted {
                continue;
            }
            let range = module::location_range(db, file, &declaration.location, RangeOf::Value);
            if range.end() < within.start() || range.start() > within.end() {
                continue;
            }
            let attr = Attr::new(db, module, self.module_address(module, &declaration.address));
            let Ok(value) = module::attribute_value(db, attr) else { continue };
            // Its size, which costs nothing to read, rules out a long value
            // before it is written out.
            let size = value.size();
            if !value.is_wholly_known() || size.bytes > MAX_HINT as u64 || size.elements > MAX_HINT as u64 {
                continue;
            }
            let Ok(json) = value.to_json_string(&value.ty()) else { continue };
            let written = text.get(usize::from(range.start())..usize::from(range.end())).unwrap_or("");
            let written: String = written.chars().filter(|it| !it.is_whitespace()).collect();
            if json.chars().count() > MAX_HINT || json == written {
                continue;
            }
            out.push(ValueHint { at: range.end(), value: json });
        }
        out
    }

    /// The signature of the function whose argument list holds `offset`
    /// (the innermost call), by the functions of the file's dialect.
    pub fn signature_at(&self, file: File, offset: TextSize) -> Option<SignatureAt> {
        let root = self.root(file)?;
        let token = root.token_at_offset(offset).left_biased()?;
        let args = token.parent_ancestors().filter(|it| it.kind() == SyntaxKind::ARG_LIST).find(|args| {
            // Inside its parentheses: after `(`, up to `)` (or the end of
            // a list not closed yet).
            let open = args.first_token().filter(|it| it.kind() == SyntaxKind::L_PAREN);
            let close = args.last_token().filter(|it| it.kind() == SyntaxKind::R_PAREN);
            open.is_some_and(|open| open.text_range().end() <= offset)
                && close.is_none_or(|close| offset <= close.text_range().start())
        })?;
        let name = args.parent().and_then(ast::FunctionCall::cast)?.name()?;
        let functions = self.functions(file);
        let function = functions.get(&name)?;
        let (label, params) = signature_parts(&name, function);
        let commas = args
            .children_with_tokens()
            .filter_map(|it| it.into_token())
            .filter(|it| it.kind() == SyntaxKind::COMMA && it.text_range().end() <= offset)
            .count();
        let active = (!params.is_empty()).then(|| commas.min(params.len() - 1));
        Some(SignatureAt { label, params, active })
    }
}
