//! `crates/syntax/src/ast/generated.rs`: one typed view per grammar node.
//!
//! Every view is a newtype over a `SyntaxNode` of one kind, so it costs
//! nothing to make and can always be turned back into the untyped node. The
//! accessors find children by kind, never by position: a tree built after a
//! syntax error may lack any child, and a missing child must read as `None`
//! rather than shift its neighbours into the wrong accessor.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{
    grammar::{EnumSrc, Field, Model, NodeSrc},
    kinds::{macro_pattern, node_kind_name, token_kind_name},
};

pub(super) fn generate(model: &Model) -> anyhow::Result<String> {
    let mut items = vec![quote! {
        use crate::{
            SyntaxKind::{self, *},
            SyntaxNode, SyntaxToken, T,
            ast::{AstChildren, AstNode, support},
        };
    }];
    for node in &model.nodes {
        items.extend(node_struct(node)?);
    }
    for enum_src in &model.enums {
        items.extend(node_enum(enum_src));
    }

    // Items are printed one by one with a blank line between them, because a
    // token stream has no line breaks and rustfmt keeps only the blank lines
    // it is given. `quote` prints a macro call as `T ! [=]`, which rustfmt
    // leaves alone when the arguments are not an expression, so it is put
    // back into the form people write.
    let code: Vec<String> = items.iter().map(|item| item.to_string().replace("T ! [", "T![")).collect();
    Ok(format!("{}{}\n", super::preamble(), code.join("\n\n")))
}

fn node_struct(node: &NodeSrc) -> anyhow::Result<Vec<TokenStream>> {
    let name = format_ident!("{}", node.name);
    let kind = format_ident!("{}", node_kind_name(&node.name));
    let doc = &node.doc;
    let mut methods = Vec::new();
    for field in &node.fields {
        methods.push(accessor(field)?);
    }
    let definition = quote! {
        #(#[doc = #doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct #name {
            pub(crate) syntax: SyntaxNode,
        }
    };
    let accessors = quote! {
        impl #name {
            #(#methods)*
        }
    };
    let ast_node = quote! {
        impl AstNode for #name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == #kind
            }
            fn cast(syntax: SyntaxNode) -> Option<Self> {
                if Self::can_cast(syntax.kind()) { Some(Self { syntax }) } else { None }
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }
    };
    // A node without children (none in HCL today) gets no empty `impl`.
    let mut items = vec![definition];
    if !methods.is_empty() {
        items.push(accessors);
    }
    items.extend([ast_node, display(&name)]);
    Ok(items)
}

/// Nodes print as their source text, trivia included, like `SyntaxNode`.
fn display(name: &Ident) -> TokenStream {
    quote! {
        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self.syntax(), f)
            }
        }
    }
}

fn accessor(field: &Field) -> anyhow::Result<TokenStream> {
    Ok(match field {
        Field::Token(text) => {
            let Some(kind) = token_kind_name(text) else {
                anyhow::bail!("the token '{text}' has no kind in the token table");
            };
            let method = format_ident!("{}_token", kind.to_ascii_lowercase());
            let pattern = macro_pattern(text);
            quote! {
                pub fn #method(&self) -> Option<SyntaxToken> {
                    support::token(&self.syntax, T![#pattern])
                }
            }
        }
        Field::Node { ty, many: false } => {
            let ty_ident = format_ident!("{}", ty);
            let method = snake_ident(ty, "");
            quote! {
                pub fn #method(&self) -> Option<#ty_ident> {
                    support::child(&self.syntax)
                }
            }
        }
        Field::Node { ty, many: true } => {
            let ty_ident = format_ident!("{}", ty);
            let method = snake_ident(ty, "s");
            quote! {
                pub fn #method(&self) -> AstChildren<#ty_ident> {
                    support::children(&self.syntax)
                }
            }
        }
    })
}

fn node_enum(enum_src: &EnumSrc) -> Vec<TokenStream> {
    let name = format_ident!("{}", enum_src.name);
    let doc = &enum_src.doc;
    let variants: Vec<Ident> = enum_src.variants.iter().map(|variant| format_ident!("{}", variant)).collect();
    let kinds: Vec<Ident> =
        enum_src.variants.iter().map(|variant| format_ident!("{}", node_kind_name(variant))).collect();
    let mut items = vec![quote! {
        #(#[doc = #doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants(#variants),)*
        }
    }];
    items.extend(variants.iter().map(|variant| {
        quote! {
            impl From<#variant> for #name {
                fn from(node: #variant) -> #name {
                    #name::#variant(node)
                }
            }
        }
    }));
    items.push(quote! {
        impl AstNode for #name {
            fn can_cast(kind: SyntaxKind) -> bool {
                matches!(kind, #(#kinds)|*)
            }
            fn cast(syntax: SyntaxNode) -> Option<Self> {
                let node = match syntax.kind() {
                    #(#kinds => #name::#variants(#variants { syntax }),)*
                    _ => return None,
                };
                Some(node)
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    #(#name::#variants(it) => &it.syntax,)*
                }
            }
        }
    });
    items.push(display(&name));
    items
}

/// `TemplatePart` → `template_part` (plus `suffix`, for plurals).
fn snake_ident(ty: &str, suffix: &str) -> Ident {
    format_ident!("{}{}", node_kind_name(ty).to_ascii_lowercase(), suffix)
}
