//! JSON syntax files in a module (`main.tf.json` and the like).
//!
//! In the JSON syntax a property is an attribute or a block only once a
//! schema says which; the module model's schema is fixed: the root's
//! properties are block types, `locals` has no label, and every other block
//! type (`variable` included) has exactly one, so `{"service": {"web":
//! {"port": 80}}}` declares `service.web.port`. (A dialect that knows other
//! label counts needs its own schema; see `docs/architecture.md`.)
//!
//! An attribute's value is turned into the native HIR by
//! [`hir::lower_json_value`] (strings parsed as templates, as the JSON syntax
//! evaluates them with a context; object keys the same), so evaluation,
//! reference analysis and backdating are those of native attributes.

use smol_str::SmolStr;
use syntax::{AstNode, TextRange, ast};

use crate::{
    Db, File,
    module::{
        Address, AttrExpr, Declaration, DeclarationKind, FileDeclarations, Location, declarations::position,
    },
};

/// The members of a body value: an object's, or those of each object of an
/// array, in order.
fn members(value: &ast::JsonValue) -> Vec<ast::JsonMember> {
    match value {
        ast::JsonValue::JsonObject(object) => object.members().collect(),
        ast::JsonValue::JsonArray(array) => array
            .values()
            .filter_map(|it| match it {
                ast::JsonValue::JsonObject(object) => Some(object.members().collect::<Vec<_>>()),
                _ => None,
            })
            .flatten()
            .collect(),
        _ => Vec::new(),
    }
}

fn name_of(member: &ast::JsonMember) -> Option<SmolStr> {
    member.name().and_then(|name| name.value()).map(SmolStr::from)
}

/// The root value of `file`, if it parsed to one.
fn root(db: &dyn Db, file: File) -> Option<ast::JsonValue> {
    crate::parse_json(db, file).tree().value()
}

/// What a JSON file declares, by the fixed schema above.
pub(crate) fn declarations(db: &dyn Db, file: File) -> FileDeclarations {
    let mut declarations = Vec::new();
    let Some(root) = root(db, file) else { return FileDeclarations { declarations } };
    for (i, block_type) in members(&root).iter().enumerate() {
        let (Some(type_name), Some(value)) = (name_of(block_type), block_type.value()) else { continue };
        let block = Some(position(i));
        if type_name == "locals" {
            for (k, local) in members(&value).iter().enumerate() {
                let Some(name) = name_of(local) else { continue };
                declarations.push(Declaration {
                    address: Address::new(["local", name.as_str()]),
                    kind: DeclarationKind::Local,
                    location: Location {
                        block,
                        attribute: Some(position(k)),
                        label: None,
                        nested: Vec::new(),
                    },
                });
            }
            continue;
        }
        for (j, labelled) in members(&value).iter().enumerate() {
            let (Some(label), Some(body)) = (name_of(labelled), labelled.value()) else { continue };
            let label_position = Some(position(j));
            let attributes = members(&body);
            if type_name == "variable" {
                let attribute_position = |wanted: &str| {
                    attributes.iter().position(|it| name_of(it).as_deref() == Some(wanted)).map(position)
                };
                declarations.push(Declaration {
                    address: Address::new(["var", label.as_str()]),
                    kind: DeclarationKind::Variable {
                        type_attr: attribute_position("type"),
                        default_attr: attribute_position("default"),
                    },
                    location: Location { block, attribute: None, label: label_position, nested: Vec::new() },
                });
                continue;
            }
            declarations.push(Declaration {
                address: Address::new([type_name.clone(), label.clone()]),
                kind: DeclarationKind::Block,
                location: Location { block, attribute: None, label: label_position, nested: Vec::new() },
            });
            for (k, attribute) in attributes.iter().enumerate() {
                let Some(name) = name_of(attribute) else { continue };
                declarations.push(Declaration {
                    address: Address::new([type_name.clone(), label.clone(), name]),
                    kind: DeclarationKind::BlockAttribute,
                    location: Location {
                        block,
                        attribute: Some(position(k)),
                        label: label_position,
                        nested: Vec::new(),
                    },
                });
            }
        }
    }
    FileDeclarations { declarations }
}

/// The member a declaration's location names: the attribute's (or, for a
/// block or variable, the labelled member's).
pub(crate) fn member_at(db: &dyn Db, file: File, location: &Location) -> Option<ast::JsonMember> {
    let root = root(db, file)?;
    let block_type = members(&root).into_iter().nth(location.block? as usize)?;
    let mut body = block_type.value()?;
    let mut member = block_type;
    if let Some(label) = location.label {
        member = members(&body).into_iter().nth(label as usize)?;
        body = member.value()?;
    }
    if let Some(attribute) = location.attribute {
        member = members(&body).into_iter().nth(attribute as usize)?;
    }
    Some(member)
}

/// The value of a variable's default, or of an attribute, as the native
/// HIR.
pub(crate) fn attribute_expr(
    db: &dyn Db,
    file: File,
    location: &Location,
    kind: &DeclarationKind,
) -> Option<AttrExpr> {
    let location = match kind {
        DeclarationKind::Variable { default_attr, .. } => {
            Location { attribute: Some((*default_attr)?), ..location.clone() }
        }
        DeclarationKind::Block => return None,
        _ => location.clone(),
    };
    let value = member_at(db, file, &location)?.value()?;
    let (hir, root, _) = hir::lower_json_value(&value);
    Some(AttrExpr { exprs: hir.exprs, root })
}

/// The range of what a location names, for diagnostics: a member's name,
/// or with `value`, its value.
pub(crate) fn range(db: &dyn Db, file: File, location: &Location, value: bool) -> Option<TextRange> {
    let member = member_at(db, file, location)?;
    if value {
        return member.value().map(|it| it.syntax().text_range());
    }
    member.name_value().map(|it| it.syntax().text_range())
}
