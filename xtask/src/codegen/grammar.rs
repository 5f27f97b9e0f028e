//! Lowering the ungrammar into the model the renderers work from.
//!
//! An ungrammar rule says which children a node may have and in what order;
//! the typed AST only needs to know, for each node, which kinds of children
//! it can hold and whether there can be many. So a rule is flattened into a
//! list of fields: every node or token mentioned once, in order of first
//! mention. A node mentioned twice outside a repetition (the operands of a
//! binary expression) stays one field whose accessor returns the first; the
//! others are written by hand in `ast/node_ext.rs`, where the meaning of each
//! position is known. A rule that is nothing but an alternation of nodes
//! (`Expr`, `TemplatePart`) becomes an enum instead of a struct.

use anyhow::Context;
use ungrammar::{Grammar, Rule};

/// Everything the renderers need, in grammar order.
#[derive(Debug)]
pub(super) struct Model {
    /// Nodes with a kind of their own: one struct each.
    pub(super) nodes: Vec<NodeSrc>,
    /// Alternations of nodes: one enum each, no kind of their own.
    pub(super) enums: Vec<EnumSrc>,
    /// Every token text the grammar mentions, in order of first mention.
    pub(super) tokens: Vec<String>,
}

#[derive(Debug)]
pub(super) struct NodeSrc {
    pub(super) name: String,
    pub(super) doc: Vec<String>,
    pub(super) fields: Vec<Field>,
}

#[derive(Debug)]
pub(super) struct EnumSrc {
    pub(super) name: String,
    pub(super) doc: Vec<String>,
    pub(super) variants: Vec<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Field {
    /// A token, by its grammar text (`'{'`, `'ident'`). Always one accessor
    /// returning the first such token: a run of tokens is rare enough
    /// (template text) to be iterated by hand.
    Token(String),
    /// A child node or enum, by its type name.
    Node { ty: String, many: bool },
}

/// Parses the grammar text and lowers it; the text is needed as well as the
/// parsed grammar because ungrammar drops comments, and the comments directly
/// above a rule are its documentation.
pub(super) fn lower(text: &str) -> anyhow::Result<Model> {
    let grammar: Grammar = text.parse().context("parsing the ungrammar")?;
    let mut model = Model { nodes: Vec::new(), enums: Vec::new(), tokens: Vec::new() };
    for node in grammar.iter() {
        let data = &grammar[node];
        let name = data.name.clone();
        let mut doc = rule_comments(text, &name);
        if !doc.is_empty() {
            doc.push(String::new());
        }
        doc.push("```text".to_owned());
        doc.push(format!("{name} = {}", render_rule(&grammar, &data.rule, false)));
        doc.push("```".to_owned());

        if let Some(variants) = node_alternatives(&grammar, &data.rule) {
            model.enums.push(EnumSrc { name, doc, variants });
            continue;
        }
        let mut fields = Vec::new();
        lower_rule(&grammar, &data.rule, false, &mut fields);
        model.nodes.push(NodeSrc { name, doc, fields });
    }
    // ungrammar numbers nodes by first mention, not by definition; the
    // grammar's own order is the one a reader of the generated code expects.
    model.nodes.sort_by_key(|node| definition_line(text, &node.name));
    model.enums.sort_by_key(|it| definition_line(text, &it.name));
    for token in grammar.tokens() {
        let text = grammar[token].name.clone();
        if !model.tokens.contains(&text) {
            model.tokens.push(text);
        }
    }
    Ok(model)
}

/// The variants, when `rule` is an alternation of nothing but nodes.
fn node_alternatives(grammar: &Grammar, rule: &Rule) -> Option<Vec<String>> {
    let Rule::Alt(alternatives) = rule else { return None };
    alternatives
        .iter()
        .map(|alternative| match alternative {
            Rule::Node(node) => Some(grammar[*node].name.clone()),
            _ => None,
        })
        .collect()
}

fn lower_rule(grammar: &Grammar, rule: &Rule, in_rep: bool, fields: &mut Vec<Field>) {
    match rule {
        Rule::Labeled { rule, .. } | Rule::Opt(rule) => lower_rule(grammar, rule, in_rep, fields),
        Rule::Rep(rule) => lower_rule(grammar, rule, true, fields),
        Rule::Seq(rules) | Rule::Alt(rules) => {
            for rule in rules {
                lower_rule(grammar, rule, in_rep, fields);
            }
        }
        Rule::Token(token) => {
            let field = Field::Token(grammar[*token].name.clone());
            if !fields.contains(&field) {
                fields.push(field);
            }
        }
        Rule::Node(node) => {
            let name = &grammar[*node].name;
            let existing = fields.iter_mut().find_map(|field| match field {
                Field::Node { ty, many } if ty == name => Some(many),
                _ => None,
            });
            match existing {
                // Mentioned before: a repetition anywhere makes it a list
                // (`Expr (',' Expr)*`); two plain mentions stay one accessor.
                Some(many) => *many |= in_rep,
                None => fields.push(Field::Node { ty: name.clone(), many: in_rep }),
            }
        }
    }
}

/// The line where `Name =` starts the definition of a rule.
fn definition_line(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .position(|line| line.strip_prefix(name).is_some_and(|rest| rest.trim_start().starts_with('=')))
}

/// The `//` lines directly above `Name =` in the grammar text.
fn rule_comments(text: &str, name: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = definition_line(text, name) else {
        return Vec::new();
    };
    let mut comments: Vec<String> = lines[..start]
        .iter()
        .rev()
        .map_while(|line| line.strip_prefix("//"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line).to_owned())
        .collect();
    comments.reverse();
    comments
}

/// Writes a rule back in ungrammar notation, for the doc comment of the
/// type generated from it: the reader sees the exact shape the accessors
/// come from.
fn render_rule(grammar: &Grammar, rule: &Rule, nested: bool) -> String {
    match rule {
        Rule::Labeled { label, rule } => format!("{label}:{}", render_rule(grammar, rule, true)),
        Rule::Node(node) => grammar[*node].name.clone(),
        Rule::Token(token) => format!("'{}'", grammar[*token].name),
        Rule::Seq(rules) => {
            let inner: Vec<String> = rules.iter().map(|rule| render_rule(grammar, rule, true)).collect();
            if nested { format!("({})", inner.join(" ")) } else { inner.join(" ") }
        }
        Rule::Alt(rules) => {
            let inner: Vec<String> = rules.iter().map(|rule| render_rule(grammar, rule, false)).collect();
            if nested { format!("({})", inner.join(" | ")) } else { inner.join(" | ") }
        }
        Rule::Opt(rule) => format!("{}?", render_rule(grammar, rule, true)),
        Rule::Rep(rule) => format!("{}*", render_rule(grammar, rule, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAMMAR: &str = "
// A list.
// Two lines.
List =
  '[' (Item (',' Item)*)? ']'

Item = Leaf | List

Pair =
  Leaf '=' Leaf

Leaf = 'ident'
";

    #[test]
    fn lowers_nodes_enums_and_fields() -> anyhow::Result<()> {
        let model = lower(GRAMMAR)?;
        let names: Vec<&str> = model.nodes.iter().map(|node| node.name.as_str()).collect();
        assert_eq!(names, ["List", "Pair", "Leaf"]);
        assert_eq!(model.enums.len(), 1);
        assert_eq!(model.enums[0].variants, ["Leaf", "List"]);

        let list = &model.nodes[0];
        assert_eq!(
            list.fields,
            [
                Field::Token("[".into()),
                Field::Node { ty: "Item".into(), many: true },
                Field::Token(",".into()),
                Field::Token("]".into()),
            ]
        );
        assert_eq!(
            list.doc,
            ["A list.", "Two lines.", "", "```text", "List = '[' (Item (',' Item)*)? ']'", "```"]
        );

        // Two plain mentions of a node stay one accessor, for the first.
        let pair = &model.nodes[1];
        assert_eq!(pair.fields, [Field::Node { ty: "Leaf".into(), many: false }, Field::Token("=".into())]);
        assert_eq!(model.tokens, ["[", ",", "]", "=", "ident"]);
        Ok(())
    }
}
