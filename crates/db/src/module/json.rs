//! JSON syntax files in a module (`main.tf.json` and the like).
//!
//! In the JSON syntax a property is an attribute or a block only once a
//! schema says which; the module model's schema is fixed: the root's
//! properties are block types, `locals` has no label, and every other block
//! type (`variable` included) has exactly one, so `{"service": {"web":
//! {"port": 80}}}` declares `service.web.port`; in a file a registered
//! dialect claims, that dialect's label counts apply instead, if it has
//! any (`resource` and `data` two, say, and `moved` none).
//!
//! An attribute's value is turned into the native HIR by
//! [`hir::lower_json_value`] (strings parsed as templates, as the JSON syntax
//! evaluates them with a context; object keys the same), so evaluation,
//! reference analysis and backdating are those of native attributes.

use smol_str::SmolStr;
use syntax::{AstNode, TextRange, ast};
use thin_vec::ThinVec;

use crate::{
    Db, File,
    module::{
        Address, AttrExpr, BodyPosition, Declaration, DeclarationKind, FileDeclarations, Location,
        declarations::position,
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

/// How many labels blocks of `type_name` have in a file whose dialect
/// gives `counts`, else by the fixed schema above. (The file's name
/// decides, not its module's dialect: declarations are per file, computed
/// before any module reads them, and a file a dialect claims is that
/// dialect's whatever module it is in.)
fn label_count(counts: Option<&std::collections::BTreeMap<SmolStr, usize>>, type_name: &str) -> usize {
    if type_name == "locals" {
        return 0;
    }
    counts.and_then(|counts| counts.get(type_name).copied()).unwrap_or(1)
}

/// The blocks under a block type's value: each with its labels, their
/// positions, and its body, `count` levels of objects deep. `"//"`
/// comment properties are not labels.
fn labelled_bodies(value: ast::JsonValue, count: usize) -> Vec<(Vec<SmolStr>, Vec<u32>, ast::JsonValue)> {
    let mut level = vec![(Vec::new(), Vec::new(), value)];
    for _ in 0..count {
        let mut next = Vec::new();
        for (labels, positions, value) in level {
            for (j, member) in members(&value).iter().enumerate() {
                let (Some(label), Some(body)) = (name_of(member), member.value()) else { continue };
                if label == "//" {
                    continue;
                }
                let mut labels = labels.clone();
                labels.push(label);
                let mut positions = positions.clone();
                positions.push(position(j));
                next.push((labels, positions, body));
            }
        }
        level = next;
    }
    level
}

/// What a JSON file declares, by the fixed schema above.
pub(crate) fn declarations(db: &dyn Db, file: File) -> FileDeclarations {
    let mut declarations = Vec::new();
    let Some(root) = root(db, file) else {
        return FileDeclarations { declarations, ..FileDeclarations::default() };
    };
    let rules = db.dialects().rules_of_file(file.path(db)).filter(|rules| !rules.label_counts.is_empty());
    let counts = rules.map(|rules| &rules.label_counts);
    for (i, block_type) in members(&root).iter().enumerate() {
        let (Some(type_name), Some(value)) = (name_of(block_type), block_type.value()) else { continue };
        if type_name == "//" {
            continue;
        }
        let block = Some(position(i));
        if type_name == "locals" {
            for (k, local) in members(&value).iter().enumerate() {
                let Some(name) = name_of(local).filter(|it| it != "//") else { continue };
                let address = Address::new(["local", name.as_str()]);
                declarations.push(Declaration::at_attribute(
                    address,
                    DeclarationKind::Local,
                    block,
                    position(k),
                ));
            }
            continue;
        }
        if type_name == "variables" && crate::module::declarations::has_variables_blocks(db, file) {
            for (k, variable) in members(&value).iter().enumerate() {
                let Some(name) = name_of(variable).filter(|it| it != "//") else { continue };
                declarations.push(Declaration::variables_member(&name, block, position(k)));
            }
            continue;
        }
        let count = label_count(counts, &type_name);
        let local_attribute = if type_name == "local" {
            crate::module::declarations::local_block_attribute(db, file)
        } else {
            None
        };
        for (labels, label_positions, body) in labelled_bodies(value, count) {
            let attributes = members(&body);
            // `"local": {"NAME": {ATTR: …}}`, where the language declares
            // locals one at a time (see `DialectRules::local_blocks`).
            if let (Some(wanted), [name]) = (local_attribute, labels.as_slice()) {
                if let Some(k) = attributes.iter().position(|it| name_of(it).as_deref() == Some(wanted)) {
                    declarations.push(Declaration {
                        address: Address::new(["local", name.as_str()]),
                        kind: DeclarationKind::Local,
                        location: Location {
                            block,
                            attribute: Some(position(k)),
                            labels: label_positions.into(),
                            nested: ThinVec::new(),
                        },
                    });
                }
                continue;
            }
            if type_name == "variable" {
                let Some(label) = labels.first() else { continue };
                let attribute_position = |wanted: &str| {
                    attributes.iter().position(|it| name_of(it).as_deref() == Some(wanted)).map(position)
                };
                declarations.push(Declaration {
                    address: Address::new(["var", label.as_str()]),
                    kind: DeclarationKind::Variable {
                        type_attr: attribute_position("type").and_then(BodyPosition::new),
                        default_attr: attribute_position("default").and_then(BodyPosition::new),
                    },
                    location: Location {
                        block,
                        attribute: None,
                        labels: label_positions.into(),
                        nested: ThinVec::new(),
                    },
                });
                continue;
            }
            let mut segments = vec![type_name.clone()];
            segments.extend(labels.iter().cloned());
            declarations.push(Declaration {
                address: Address::new(segments.clone()),
                kind: DeclarationKind::Block,
                location: Location {
                    block,
                    attribute: None,
                    labels: label_positions.as_slice().into(),
                    nested: ThinVec::new(),
                },
            });
            for (k, attribute) in attributes.iter().enumerate() {
                let Some(name) = name_of(attribute).filter(|it| it != "//") else { continue };
                let mut segments = segments.clone();
                segments.push(name);
                declarations.push(Declaration {
                    address: Address::new(segments),
                    kind: DeclarationKind::BlockAttribute,
                    location: Location {
                        block,
                        attribute: Some(position(k)),
                        labels: label_positions.as_slice().into(),
                        nested: ThinVec::new(),
                    },
                });
            }
        }
    }
    FileDeclarations { declarations, ..FileDeclarations::default() }
}

/// The member a declaration's location names: the attribute's (or, for a
/// block or variable, the labelled member's).
pub(crate) fn member_at(db: &dyn Db, file: File, location: &Location) -> Option<ast::JsonMember> {
    let root = root(db, file)?;
    let block_type = members(&root).into_iter().nth(location.block? as usize)?;
    let mut body = block_type.value()?;
    let mut member = block_type;
    for &label in &location.labels {
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
            Location { attribute: Some(default_attr.as_ref()?.get()), ..location.clone() }
        }
        DeclarationKind::Block => return None,
        _ => location.clone(),
    };
    let value = member_at(db, file, &location)?.value()?;
    // A value holding a syntax error has no value, as a native attribute
    // (see `hir::lower_file`): the parser's recovery is a guess.
    let range = value.syntax().text_range();
    if crate::parse_json(db, file).errors().iter().any(|error| range.contains_inclusive(error.range.start()))
    {
        return Some(AttrExpr::new(vec![hir::Expr::Missing], hir::expr_id(0)));
    }
    let (hir, root, _) = hir::lower_json_value(&value);
    Some(AttrExpr::from_arena(hir.exprs, root))
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
