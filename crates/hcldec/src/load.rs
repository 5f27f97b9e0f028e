//! Spec files (`spec/hcldec-spec-format.md`, the reference's
//! `cmd/hcldec/spec.go`): native HCL whose one root block says how to map
//! an input body to a value, beside `variables` blocks and `function`
//! blocks for the input's evaluation context.
//!
//! One deliberate difference: `block_attrs` blocks are accepted. The
//! reference documents them and has their decoder, but leaves the type out
//! of its spec schema, so it rejects them as an unsupported block type.

use std::{collections::BTreeMap, sync::Arc};

use decode::{
    AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema, Diagnostic, Diagnostics,
    Expression, Severity, SourceFile, diagnostic::has_errors,
};
use smol_str::SmolStr;
use value::{Type, Value};

use crate::{
    functions::{spec_functions, user_function},
    spec::{AttrSpec, BlockAttrsSpec, BlockCollectionSpec, BlockMapSpec, BlockSpec, Spec, TransformSpec},
    type_expr::type_expr,
};

/// What a spec file defines.
#[derive(Debug, Clone)]
pub struct SpecFile {
    /// The `variables` blocks' attributes, for the input's context.
    pub variables: BTreeMap<String, Value>,
    /// The `function` blocks' functions, for the input's context.
    pub functions: BTreeMap<String, eval::Function>,
    /// The root spec; a null literal when the file is broken.
    pub root: Spec,
}

/// The spec kinds a spec block may be, in the reference's order.
const SPEC_BLOCK_TYPES: [&str; 11] = [
    "object",
    "array",
    "literal",
    "attr",
    "block",
    "block_list",
    "block_map",
    "block_set",
    "block_attrs",
    "default",
    "transform",
];

/// What a broken spec decodes to: a null, so that nothing further fails.
fn error_spec() -> Spec {
    Spec::Literal(Value::null(Type::Dynamic))
}

/// The spec blocks of a body: unlabelled, or (in an `object`) with one label,
/// the property name.
fn spec_schema(labelled: bool) -> BodySchema {
    let label_names = if labelled { vec![SmolStr::new("key")] } else { Vec::new() };
    BodySchema {
        attributes: Vec::new(),
        blocks: SPEC_BLOCK_TYPES
            .iter()
            .map(|name| BlockHeaderSchema { type_name: SmolStr::new(name), label_names: label_names.clone() })
            .collect(),
    }
}

/// The spec definition functions, shared by the spec file's expressions.
struct Loader {
    functions: Arc<BTreeMap<String, eval::Function>>,
}

impl Loader {
    /// The context of the spec file's own expressions: functions but no
    /// variables (the reference's `specCtx`).
    fn spec_context(&self) -> eval::Context {
        eval::Context {
            functions: (*self.functions).clone(),
            variables_allowed: false,
            ..eval::Context::new()
        }
    }
}

/// Reads a parsed spec file. Its syntax errors come first; a file with
/// syntax errors yields the error spec.
pub fn load_spec_file(file: &Arc<SourceFile>) -> (SpecFile, Diagnostics) {
    let mut diags = file.syntax_diagnostics();
    if has_errors(&diags) {
        return (
            SpecFile { variables: BTreeMap::new(), functions: BTreeMap::new(), root: error_spec() },
            diags,
        );
    }
    let loader = Loader { functions: Arc::new(spec_functions()) };
    let body = file.body();

    let (functions, body, more) = loader.user_functions(&body);
    diags.extend(more);

    let variables_schema = BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema { type_name: "variables".into(), label_names: Vec::new() }],
    };
    let (content, body, more) = body.partial_content(&variables_schema);
    diags.extend(more);
    let mut variables = BTreeMap::new();
    let ctx = loader.spec_context();
    for block in &content.blocks {
        let (attrs, more) = block.body.just_attributes();
        diags.extend(more);
        for attr in attrs {
            let (value, more) = attr.expr.value(&ctx);
            diags.extend(more);
            variables.insert(attr.name.to_string(), value);
        }
    }

    let (root, more) = loader.root(&body);
    diags.extend(more);
    (SpecFile { variables, functions, root }, diags)
}

impl Loader {
    /// The `function "NAME" { params = […], variadic_param = NAME, result
    /// = EXPR }` blocks (`userfunc.DecodeUserFunctions`), and the rest of
    /// the body.
    fn user_functions(&self, body: &Body) -> (BTreeMap<String, eval::Function>, Body, Diagnostics) {
        let schema = BodySchema {
            attributes: Vec::new(),
            blocks: vec![BlockHeaderSchema {
                type_name: "function".into(),
                label_names: vec!["name".into()],
            }],
        };
        let (content, rest, mut diags) = body.partial_content(&schema);
        let mut functions = BTreeMap::new();
        if has_errors(&diags) {
            return (functions, rest, diags);
        }
        let function_schema = BodySchema {
            attributes: vec![
                AttributeSchema { name: "params".into(), required: true },
                AttributeSchema { name: "variadic_param".into(), required: false },
                AttributeSchema { name: "result".into(), required: true },
            ],
            blocks: Vec::new(),
        };
        'blocks: for block in &content.blocks {
            let Some(name) = block.labels.first() else { continue };
            let (content, more) = block.body.content(&function_schema);
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                continue;
            }
            let (Some(params), Some(result)) = (content.attribute("params"), content.attribute("result"))
            else {
                continue;
            };
            let Some(param_exprs) = params.expr.as_list() else {
                diags.push(Diagnostic::error(
                    "Invalid expression",
                    "A static list expression is required.",
                    Some(params.expr.start_range()),
                ));
                continue;
            };
            let mut param_names = Vec::with_capacity(param_exprs.len());
            for param in &param_exprs {
                let Some(param_name) = param.as_keyword() else {
                    diags.push(Diagnostic::error(
                        "Invalid param element",
                        "Each parameter name must be an identifier.",
                        Some(param.range()),
                    ));
                    continue 'blocks;
                };
                param_names.push(param_name.to_string());
            }
            let variadic = match content.attribute("variadic_param") {
                None => None,
                Some(attr) => match attr.expr.as_keyword() {
                    Some(name) => Some(name.to_string()),
                    None => {
                        diags.push(Diagnostic::error(
                            "Invalid variadic_param",
                            "The variadic parameter name must be an identifier.",
                            Some(attr.expr.range()),
                        ));
                        continue;
                    }
                },
            };
            functions.insert(
                name.to_string(),
                user_function(param_names, variadic, result.expr.clone(), self.functions.clone()),
            );
        }
        (functions, rest, diags)
    }

    /// The one root spec block.
    fn root(&self, body: &Body) -> (Spec, Diagnostics) {
        const DETAIL: &str =
            "A spec file must have exactly one root block specifying how to map to a JSON value.";
        self.single_spec_block(body, DETAIL, DETAIL)
    }

    /// The one spec block of `body`: "Missing spec block" without one (unless
    /// other errors explain why), "Extraneous spec block" at the second.
    fn single_spec_block(
        &self,
        body: &Body,
        missing_detail: &str,
        extraneous_detail: &str,
    ) -> (Spec, Diagnostics) {
        let (content, mut diags) = body.content(&spec_schema(false));
        match content.blocks.as_slice() {
            [] => {
                if !has_errors(&diags) {
                    diags.push(Diagnostic::error(
                        "Missing spec block",
                        missing_detail,
                        Some(body.missing_item_range()),
                    ));
                }
                (error_spec(), diags)
            }
            [block] => {
                let (spec, more) = self.spec_block(block);
                diags.extend(more);
                (spec, diags)
            }
            [_, second, ..] => {
                diags.push(Diagnostic::error(
                    "Extraneous spec block",
                    extraneous_detail,
                    Some(second.def_range.clone()),
                ));
                (error_spec(), diags)
            }
        }
    }

    fn spec_block(&self, block: &Block) -> (Spec, Diagnostics) {
        let implied_name = block.labels.first().cloned().unwrap_or_default();
        let body = &block.body;
        match block.type_name.as_str() {
            "object" => self.object(body),
            "array" => self.array(body),
            "attr" => self.attr(body, implied_name),
            "block" => self.block(body, implied_name),
            "block_list" => self.block_collection(body, implied_name, "block_list"),
            "block_set" => self.block_collection(body, implied_name, "block_set"),
            "block_map" => self.block_map(body, implied_name),
            "block_attrs" => self.block_attrs(body, implied_name),
            "default" => self.default(body),
            "transform" => self.transform(body),
            "literal" => self.literal(body),
            // The schema admits no other type.
            other => (
                error_spec(),
                vec![Diagnostic::error(
                    "Invalid spec block",
                    format!("Blocks of type {} are not expected here.", crate::decode::quote(other)),
                    Some(block.type_range.clone()),
                )],
            ),
        }
    }

    fn object(&self, body: &Body) -> (Spec, Diagnostics) {
        let (content, mut diags) = body.content(&spec_schema(true));
        let mut props = BTreeMap::new();
        for block in &content.blocks {
            let (spec, more) = self.spec_block(block);
            diags.extend(more);
            if let Some(key) = block.labels.first() {
                props.insert(key.to_string(), spec);
            }
        }
        (Spec::Object(props), diags)
    }

    fn array(&self, body: &Body) -> (Spec, Diagnostics) {
        let (content, mut diags) = body.content(&spec_schema(false));
        let mut elems = Vec::with_capacity(content.blocks.len());
        for block in &content.blocks {
            let (spec, more) = self.spec_block(block);
            diags.extend(more);
            elems.push(spec);
        }
        (Spec::Array(elems), diags)
    }

    fn attr(&self, body: &Body, implied_name: SmolStr) -> (Spec, Diagnostics) {
        let (args, mut diags) = Args::whole(body, &[("name", false), ("required", false), ("type", false)]);
        let name = args.string("name", &mut diags);
        let required = args.bool("required", &mut diags);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let (ty, more) = type_expr(&args.expression("type", body));
        diags.extend(more);
        let name = name.map(SmolStr::from).unwrap_or(implied_name);
        if name.is_empty() {
            diags.push(Diagnostic::error(
                "Missing name in attribute spec",
                "The name attribute is required, to specify the attribute name that is expected in an input HCL file.",
                Some(body.missing_item_range()),
            ));
            return (error_spec(), diags);
        }
        (Spec::Attr(AttrSpec { name, ty, required: required.unwrap_or(false) }), diags)
    }

    fn block(&self, body: &Body, implied_name: SmolStr) -> (Spec, Diagnostics) {
        let (args, nested_body, mut diags) =
            Args::partial(body, &[("block_type", false), ("required", false)]);
        let type_name = args.string("block_type", &mut diags);
        let required = args.bool("required", &mut diags);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let (nested, more) = self.nested(&nested_body);
        diags.extend(more);
        let type_name = type_name.map(SmolStr::from).unwrap_or(implied_name);
        (
            Spec::Block(BlockSpec {
                type_name,
                nested: Box::new(nested),
                required: required.unwrap_or(false),
            }),
            diags,
        )
    }

    fn block_collection(&self, body: &Body, implied_name: SmolStr, kind: &str) -> (Spec, Diagnostics) {
        let (args, nested_body, mut diags) =
            Args::partial(body, &[("block_type", false), ("max_items", false), ("min_items", false)]);
        let type_name = args.string("block_type", &mut diags);
        let max_items = args.int("max_items", &mut diags);
        let min_items = args.int("min_items", &mut diags);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let (nested, more) = self.nested(&nested_body);
        diags.extend(more);
        let type_name = type_name.map(SmolStr::from).unwrap_or(implied_name);
        if type_name.is_empty() {
            diags.push(missing_block_type(kind, body));
            return (error_spec(), diags);
        }
        // A negative count bounds nothing, as in the reference.
        let count = |n: Option<i64>| n.and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        let collection = BlockCollectionSpec {
            type_name,
            nested: Box::new(nested),
            min_items: count(min_items),
            max_items: count(max_items),
        };
        let spec = if kind == "block_set" { Spec::BlockSet(collection) } else { Spec::BlockList(collection) };
        (spec, diags)
    }

    fn block_map(&self, body: &Body, implied_name: SmolStr) -> (Spec, Diagnostics) {
        let (args, nested_body, mut diags) = Args::partial(body, &[("block_type", false), ("labels", true)]);
        let type_name = args.string("block_type", &mut diags);
        let labels = args.string_list("labels", &mut diags);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let (nested, more) = self.nested(&nested_body);
        diags.extend(more);
        let type_name = type_name.map(SmolStr::from).unwrap_or(implied_name);
        if type_name.is_empty() {
            diags.push(missing_block_type("block_map", body));
            return (error_spec(), diags);
        }
        let label_names: Vec<SmolStr> = labels.unwrap_or_default().into_iter().map(SmolStr::from).collect();
        if label_names.is_empty() {
            diags.push(Diagnostic::error(
                "Invalid block label name list",
                "A block_map must have at least one label specified.",
                Some(body.missing_item_range()),
            ));
            return (error_spec(), diags);
        }
        let spec = Spec::BlockMap(BlockMapSpec { type_name, label_names, nested: Box::new(nested) });
        if spec.implied_type().has_dynamic_types() {
            diags.push(Diagnostic::error(
                "Invalid block_map spec",
                "A block_map spec may not contain attributes with type 'any'.",
                Some(body.missing_item_range()),
            ));
        }
        (spec, diags)
    }

    fn block_attrs(&self, body: &Body, implied_name: SmolStr) -> (Spec, Diagnostics) {
        let (args, mut diags) =
            Args::whole(body, &[("block_type", false), ("element_type", false), ("required", false)]);
        let type_name = args.string("block_type", &mut diags);
        let required = args.bool("required", &mut diags);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let (element_type, more) = type_expr(&args.expression("element_type", body));
        diags.extend(more);
        let type_name = type_name.map(SmolStr::from).unwrap_or(implied_name);
        if type_name.is_empty() {
            diags.push(missing_block_type("block_attrs", body));
            return (error_spec(), diags);
        }
        (
            Spec::BlockAttrs(BlockAttrsSpec { type_name, element_type, required: required.unwrap_or(false) }),
            diags,
        )
    }

    fn literal(&self, body: &Body) -> (Spec, Diagnostics) {
        let (args, mut diags) = Args::whole(body, &[("value", true)]);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let Some(attr) = args.content.attribute("value") else {
            return (error_spec(), diags);
        };
        let (value, more) = attr.expr.value(&self.spec_context());
        let failed = has_errors(&more);
        diags.extend(more);
        if failed {
            return (error_spec(), diags);
        }
        (Spec::Literal(value), diags)
    }

    fn default(&self, body: &Body) -> (Spec, Diagnostics) {
        let (content, mut diags) = body.content(&spec_schema(false));
        if content.blocks.is_empty() {
            if !has_errors(&diags) {
                diags.push(Diagnostic::error(
                    "Missing spec block",
                    "A default block must have at least one nested spec, each specifying a possible outcome.",
                    Some(body.missing_item_range()),
                ));
            }
            return (error_spec(), diags);
        }
        if content.blocks.len() == 1 && !has_errors(&diags) {
            // The reference points this at a second block that does not
            // exist, and crashes; the one block is the useful place.
            diags.push(Diagnostic {
                severity: Severity::Warning,
                summary: "Useless default block".into(),
                detail: "A default block with only one spec is equivalent to using that spec alone.".into(),
                subject: Some(content.blocks[0].def_range.clone()),
                context: None,
            });
        }
        let mut spec: Option<Spec> = None;
        for block in &content.blocks {
            let (candidate, more) = self.spec_block(block);
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                continue;
            }
            spec = Some(match spec {
                None => candidate,
                Some(primary) => Spec::Default { primary: Box::new(primary), default: Box::new(candidate) },
            });
        }
        (spec.unwrap_or_else(error_spec), diags)
    }

    fn transform(&self, body: &Body) -> (Spec, Diagnostics) {
        let (args, nested_body, mut diags) = Args::partial(body, &[("result", false)]);
        if has_errors(&diags) {
            return (error_spec(), diags);
        }
        let result = args.expression("result", body);
        let (content, nested_diags) = nested_body.content(&spec_schema(false));
        let nested_failed = has_errors(&nested_diags);
        diags.extend(nested_diags);
        let [block] = content.blocks.as_slice() else {
            if !nested_failed {
                diags.push(Diagnostic::error(
                    "Invalid transform spec",
                    "A transform spec block must have exactly one nested spec block.",
                    Some(body.missing_item_range()),
                ));
            }
            return (error_spec(), diags);
        };
        let (wrapped, more) = self.spec_block(block);
        diags.extend(more);
        let spec = TransformSpec {
            wrapped: Box::new(wrapped),
            expr: result,
            var_name: "nested".into(),
            functions: self.functions.clone(),
        };
        (Spec::Transform(spec), diags)
    }

    /// The one nested spec of a block spec.
    fn nested(&self, body: &Body) -> (Spec, Diagnostics) {
        const DETAIL: &str =
            "A block spec must have exactly one child spec specifying how to decode block contents.";
        self.single_spec_block(body, DETAIL, DETAIL)
    }
}

fn missing_block_type(kind: &str, body: &Body) -> Diagnostic {
    Diagnostic::error(
        format!("Missing block_type in {kind} spec"),
        "The block_type attribute is required, to specify the block type name that is expected in an input HCL file.",
        Some(body.missing_item_range()),
    )
}

/// The arguments of a spec block, read as the reference's `gohcl` reads them
/// into a struct: each evaluated without a context and converted to the
/// field's type, with "Unsuitable value type" when it does not convert.
struct Args {
    content: BodyContent,
}

impl Args {
    fn schema(attrs: &[(&str, bool)]) -> BodySchema {
        BodySchema {
            attributes: attrs
                .iter()
                .map(|(name, required)| AttributeSchema { name: SmolStr::new(name), required: *required })
                .collect(),
            blocks: Vec::new(),
        }
    }

    /// Arguments that must be all of the body.
    fn whole(body: &Body, attrs: &[(&str, bool)]) -> (Args, Diagnostics) {
        let (content, diags) = body.content(&Args::schema(attrs));
        (Args { content }, diags)
    }

    /// Arguments beside nested spec blocks: the rest of the body too.
    fn partial(body: &Body, attrs: &[(&str, bool)]) -> (Args, Body, Diagnostics) {
        let (content, rest, diags) = body.partial_content(&Args::schema(attrs));
        (Args { content }, rest, diags)
    }

    /// The argument's value as `ty`; `None` when absent or null.
    fn value(&self, name: &str, ty: &Type, diags: &mut Diagnostics) -> Option<Value> {
        let attr = self.content.attribute(name)?;
        let (value, more) = attr.expr.value(&eval::Context::none());
        diags.extend(more);
        let unsuitable = |message: String| {
            let mut diag = Diagnostic::error(
                "Unsuitable value type",
                format!("Unsuitable value: {message}"),
                Some(attr.expr.start_range()),
            );
            diag.context = Some(attr.expr.range());
            diag
        };
        let value = match value::convert(&value, ty) {
            Ok(value) => value,
            Err(err) => {
                diags.push(unsuitable(err.to_string()));
                return None;
            }
        };
        if value.is_null() {
            return None;
        }
        if !value.is_wholly_known() {
            diags.push(unsuitable("value must be known".to_string()));
            return None;
        }
        Some(value)
    }

    fn string(&self, name: &str, diags: &mut Diagnostics) -> Option<String> {
        self.value(name, &Type::String, diags).and_then(|value| value.as_str().map(str::to_string))
    }

    fn bool(&self, name: &str, diags: &mut Diagnostics) -> Option<bool> {
        self.value(name, &Type::Bool, diags).and_then(|value| value.as_bool())
    }

    fn int(&self, name: &str, diags: &mut Diagnostics) -> Option<i64> {
        let value = self.value(name, &Type::Number, diags)?;
        let number = value.as_number()?;
        match number.to_i64().filter(|_| number.is_integer()) {
            Some(n) => Some(n),
            None => {
                let attr = self.content.attribute(name)?;
                let mut diag = Diagnostic::error(
                    "Unsuitable value type",
                    "Unsuitable value: value must be a whole number, between -9223372036854775808 and 9223372036854775807",
                    Some(attr.expr.start_range()),
                );
                diag.context = Some(attr.expr.range());
                diags.push(diag);
                None
            }
        }
    }

    fn string_list(&self, name: &str, diags: &mut Diagnostics) -> Option<Vec<String>> {
        let value = self.value(name, &Type::list(Type::String), diags)?;
        let elems = value.elements()?;
        Some(elems.iter().map(|elem| elem.as_str().unwrap_or_default().to_string()).collect())
    }

    /// The argument's expression, or a null standing where it would be, as
    /// `gohcl` gives an absent `hcl.Expression` field.
    fn expression(&self, name: &str, body: &Body) -> Expression {
        match self.content.attribute(name) {
            Some(attr) => attr.expr.clone(),
            None => Expression::literal(Value::null(Type::Dynamic), body.missing_item_range()),
        }
    }
}
