//! The kinds of spec (the reference's `hcldec.Spec` implementations) and
//! what follows from a spec alone: the type of the value it produces and the
//! schema it asks a body for.

use std::{collections::BTreeMap, sync::Arc};

use decode::{AttributeSchema, BlockHeaderSchema, BodySchema, Expression};
use smol_str::SmolStr;
use value::{Type, Value};

/// How to turn a body into a value.
///
/// Object properties are kept sorted by name. The reference keeps them in a
/// Go map and so visits them in a random order; a sorted order makes the
/// implied schema, and with it the order of diagnostics, deterministic.
#[derive(Debug, Clone)]
pub enum Spec {
    /// An object with one property per nested spec (`ObjectSpec`).
    Object(BTreeMap<String, Spec>),
    /// A tuple with one element per nested spec (`TupleSpec`, the spec
    /// file's `array`).
    Array(Vec<Spec>),
    /// An attribute's value converted to a type (`AttrSpec`).
    Attr(AttrSpec),
    /// A fixed value, whatever the body holds (`LiteralSpec`).
    Literal(Value),
    /// An expression evaluated in the decoding context, whatever the body
    /// holds (`ExprSpec`).
    Expr(Expression),
    /// The body of the one block of a type (`BlockSpec`).
    Block(BlockSpec),
    /// The bodies of the blocks of a type as a list (`BlockListSpec`).
    BlockList(BlockCollectionSpec),
    /// The bodies of the blocks of a type as a set (`BlockSetSpec`).
    BlockSet(BlockCollectionSpec),
    /// The bodies of the blocks of a type as maps keyed by their labels
    /// (`BlockMapSpec`).
    BlockMap(BlockMapSpec),
    /// The attributes of the one block of a type as a map
    /// (`BlockAttrsSpec`).
    BlockAttrs(BlockAttrsSpec),
    /// A label of the block whose body is being decoded (`BlockLabelSpec`).
    BlockLabel { index: usize, name: SmolStr },
    /// The primary spec's value, or the default's when it is null
    /// (`DefaultSpec`).
    Default { primary: Box<Spec>, default: Box<Spec> },
    /// An expression over the wrapped spec's value (`TransformExprSpec`).
    Transform(TransformSpec),
}

#[derive(Debug, Clone)]
pub struct AttrSpec {
    pub name: SmolStr,
    pub ty: Type,
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct BlockSpec {
    pub type_name: SmolStr,
    pub nested: Box<Spec>,
    pub required: bool,
}

/// `block_list` and `block_set`: every block of a type, between
/// `min_items` and `max_items` of them (no upper bound when `max_items` is
/// zero).
#[derive(Debug, Clone)]
pub struct BlockCollectionSpec {
    pub type_name: SmolStr,
    pub nested: Box<Spec>,
    pub min_items: usize,
    pub max_items: usize,
}

#[derive(Debug, Clone)]
pub struct BlockMapSpec {
    pub type_name: SmolStr,
    /// One level of map per label, outermost first; never empty.
    pub label_names: Vec<SmolStr>,
    pub nested: Box<Spec>,
}

#[derive(Debug, Clone)]
pub struct BlockAttrsSpec {
    pub type_name: SmolStr,
    pub element_type: Type,
    pub required: bool,
}

/// `result` evaluated with the wrapped spec's value as the variable
/// `var_name`, and the functions of `functions`.
#[derive(Debug, Clone)]
pub struct TransformSpec {
    pub wrapped: Box<Spec>,
    pub expr: Expression,
    pub var_name: SmolStr,
    pub functions: Arc<BTreeMap<String, eval::Function>>,
}

impl TransformSpec {
    /// The context `expr` is evaluated in: the functions, and `value` as
    /// the one variable.
    pub(crate) fn context(&self, value: Value) -> eval::Context {
        let mut ctx = eval::Context::new();
        ctx.functions = (*self.functions).clone();
        ctx.variables.insert(self.var_name.to_string(), value);
        ctx
    }
}

impl Spec {
    /// The specs that read the same body as this one, as the reference's
    /// `visitSameBodyChildren` gives them (a block spec's nested spec reads
    /// the block's body, so it is not one of them).
    pub(crate) fn same_body_children(&self) -> Vec<&Spec> {
        match self {
            Spec::Object(props) => props.values().collect(),
            Spec::Array(elems) => elems.iter().collect(),
            Spec::Default { primary, default } => vec![primary, default],
            Spec::Transform(transform) => vec![&transform.wrapped],
            _ => Vec::new(),
        }
    }

    /// The attributes this spec itself reads from its body.
    fn own_attributes(&self) -> Vec<AttributeSchema> {
        match self {
            Spec::Attr(attr) => vec![AttributeSchema { name: attr.name.clone(), required: attr.required }],
            // Both specs' attributes, so that both values are at hand.
            Spec::Default { primary, default } => {
                let mut attrs = primary.own_attributes();
                attrs.extend(default.own_attributes());
                attrs
            }
            _ => Vec::new(),
        }
    }

    /// The block types this spec itself reads from its body.
    fn own_blocks(&self) -> Vec<BlockHeaderSchema> {
        match self {
            Spec::Block(BlockSpec { type_name, nested, .. })
            | Spec::BlockList(BlockCollectionSpec { type_name, nested, .. })
            | Spec::BlockSet(BlockCollectionSpec { type_name, nested, .. }) => {
                vec![BlockHeaderSchema { type_name: type_name.clone(), label_names: label_names(nested) }]
            }
            Spec::BlockMap(map) => {
                let mut labels = map.label_names.clone();
                labels.extend(label_names(&map.nested));
                vec![BlockHeaderSchema { type_name: map.type_name.clone(), label_names: labels }]
            }
            Spec::BlockAttrs(attrs) => {
                vec![BlockHeaderSchema { type_name: attrs.type_name.clone(), label_names: Vec::new() }]
            }
            // Only the primary may be a block: the default could not say
            // which nested spec its blocks take.
            Spec::Default { primary, .. } => primary.own_blocks(),
            _ => Vec::new(),
        }
    }

    /// The type of the value decoding with this spec produces
    /// (`hcldec.ImpliedType`).
    pub fn implied_type(&self) -> Type {
        match self {
            Spec::Object(props) => {
                Type::object(props.iter().map(|(k, s)| (k.clone(), s.implied_type())).collect())
            }
            Spec::Array(elems) => Type::tuple(elems.iter().map(Spec::implied_type).collect()),
            Spec::Attr(attr) => attr.ty.clone(),
            Spec::Literal(value) => value.ty(),
            Spec::Expr(_) => Type::Dynamic,
            Spec::Block(block) => block.nested.implied_type(),
            Spec::BlockList(list) => Type::list(list.nested.implied_type()),
            Spec::BlockSet(set) => Type::set(set.nested.implied_type()),
            Spec::BlockMap(map) => {
                let mut ty = map.nested.implied_type();
                for _ in &map.label_names {
                    ty = Type::map(ty);
                }
                ty
            }
            Spec::BlockAttrs(attrs) => Type::map(attrs.element_type.clone()),
            Spec::BlockLabel { .. } => Type::String,
            Spec::Default { primary, .. } => primary.implied_type(),
            // The result's type for an unknown value of the wrapped type:
            // as precise as the expression allows, which may be not at all.
            Spec::Transform(transform) => {
                let ctx = transform.context(Value::unknown(transform.wrapped.implied_type()));
                transform.expr.value(&ctx).0.ty()
            }
        }
    }
}

/// The names of the labels the label specs among `spec`'s same-body
/// children ask for, by index (`findLabelSpecs`).
fn label_names(spec: &Spec) -> Vec<SmolStr> {
    let mut names: BTreeMap<usize, SmolStr> = BTreeMap::new();
    let mut stack = vec![spec];
    while let Some(spec) = stack.pop() {
        if let Spec::BlockLabel { index, name } = spec {
            names.insert(*index, name.clone());
        }
        stack.extend(spec.same_body_children());
    }
    let Some(&max) = names.keys().next_back() else {
        return Vec::new();
    };
    (0..=max)
        .map(|i| match names.get(&i) {
            Some(name) if !name.is_empty() => name.clone(),
            // A gap in the indexes; the reference names it this way.
            _ => SmolStr::new(format!("missing{i:02}")),
        })
        .collect()
}

/// The schema decoding with `spec` asks its body for
/// (`hcldec.ImpliedSchema`): what the spec and its same-body children read,
/// in the order they are visited.
pub fn implied_schema(spec: &Spec) -> BodySchema {
    let mut schema = BodySchema::default();
    visit(spec, &mut |spec| {
        // A default spec repeats its children's attributes, as the
        // reference's does; a repeated required attribute is reported
        // missing twice there too. Repeated block types mean nothing, so
        // they are dropped.
        schema.attributes.extend(spec.own_attributes());
        for header in spec.own_blocks() {
            if !schema.blocks.iter().any(|known| known.type_name == header.type_name) {
                schema.blocks.push(header);
            }
        }
    });
    schema
}

/// Calls `f` on `spec` and each of its same-body descendants, depth first.
pub(crate) fn visit<'a>(spec: &'a Spec, f: &mut dyn FnMut(&'a Spec)) {
    f(spec);
    for child in spec.same_body_children() {
        visit(child, f);
    }
}

/// The block types `spec` reads, with the spec each block's body is
/// decoded with (`hcldec.ChildBlockTypes`).
pub fn child_block_types(spec: &Spec) -> BTreeMap<SmolStr, &Spec> {
    let mut types = BTreeMap::new();
    visit(spec, &mut |spec| {
        let nested: Option<&Spec> = match spec {
            Spec::Block(block) => Some(&block.nested),
            Spec::BlockList(list) | Spec::BlockSet(list) => Some(&list.nested),
            Spec::BlockMap(map) => Some(&map.nested),
            Spec::Default { primary, .. } => match &**primary {
                Spec::Block(block) => Some(&block.nested),
                Spec::BlockList(list) | Spec::BlockSet(list) => Some(&list.nested),
                Spec::BlockMap(map) => Some(&map.nested),
                _ => None,
            },
            _ => None,
        };
        if let Some(nested) = nested {
            for header in spec.own_blocks() {
                types.insert(header.type_name, nested);
            }
        }
    });
    types
}
