//! [`Address`]: where something is in a module, by the structure the
//! configuration is written in (a variable, a local, a top-level attribute,
//! or a block with its type and labels, the blocks nested in it and one of
//! their attributes), and its printed form.

use std::fmt;

/// Where a value is in a module: `var.NAME`, `local.NAME`, a top-level
/// attribute, a block (its type and labels, then nested blocks), or an
/// attribute of a block.
///
/// Its printed form is the traversal an expression would write, a label
/// that is not an identifier written in brackets and quotes, and a block
/// whose type and labels repeat in its body followed by its position
/// among them: `service["api.v2"].image`, `target.app.step[1].run`.
/// [`Workspace::address`](crate::Workspace::address) reads that form back,
/// telling labels from nested block types and attributes by the module's
/// blocks (the same text can mean a label in one configuration and a nested
/// block in another).
///
/// ```
/// use halite::Address;
///
/// let image = Address::block("service", ["api.v2"]).attribute("image");
/// assert_eq!(image.to_string(), r#"service["api.v2"].image"#);
/// assert_eq!(image.labels(), ["api.v2"]);
/// assert_eq!(image.attribute_name(), Some("image"));
///
/// let run = Address::block("target", ["app"]).nested("step", [] as [&str; 0]).at(1).attribute("run");
/// assert_eq!(run.to_string(), "target.app.step[1].run");
/// assert_eq!(run.parent(), Some(Address::block("target", ["app"]).nested("step", [] as [&str; 0]).at(1)));
/// assert_eq!(Address::variable("profile"), "var.profile");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address {
    root: Root,
    /// The top-level block and the blocks nested in it, outermost first;
    /// empty for a variable, a local or a top-level attribute.
    blocks: Vec<BlockStep>,
    /// The attribute (a variable's or local's name); `None` for a block.
    attribute: Option<String>,
    /// Whether the top-level block's type goes without saying, as the
    /// dialect's unprefixed block types do (Terraform's `resource`:
    /// `aws_instance.web.ami`): then it is not printed. Set on the
    /// addresses a module gives.
    implied_type: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Root {
    Variable,
    Local,
    Body,
}

/// One block of an [`Address`]: its type, its labels, and its position
/// among the blocks of its body with the same type and labels, which only
/// a block that repeats has.
///
/// ```
/// let address = halite::Address::block("service", ["api"]).nested("port", ["http"]).at(0);
/// let port = &address.blocks()[1];
/// assert_eq!((port.type_name(), port.labels(), port.index()), ("port", &["http".to_string()][..], Some(0)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockStep {
    type_name: String,
    labels: Vec<String>,
    index: Option<usize>,
}

impl BlockStep {
    /// The block's type, the first word of its header.
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// The block's labels, in order.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Its position among the blocks of its body with the same type and
    /// labels, if there are several.
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    pub(crate) fn new(type_name: &str, labels: &[impl AsRef<str>], index: Option<usize>) -> BlockStep {
        BlockStep {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|it| it.as_ref().to_string()).collect(),
            index,
        }
    }
}

impl Address {
    /// `var.NAME`.
    ///
    /// ```
    /// assert!(halite::Address::variable("port").is_variable());
    /// ```
    pub fn variable(name: impl Into<String>) -> Address {
        Address {
            root: Root::Variable,
            blocks: Vec::new(),
            attribute: Some(name.into()),
            implied_type: false,
        }
    }

    /// `local.NAME`.
    ///
    /// ```
    /// assert_eq!(halite::Address::local("out_dir").to_string(), "local.out_dir");
    /// ```
    pub fn local(name: impl Into<String>) -> Address {
        Address { root: Root::Local, blocks: Vec::new(), attribute: Some(name.into()), implied_type: false }
    }

    /// An attribute at the top level of a file (outside any block).
    ///
    /// ```
    /// assert_eq!(halite::Address::top_level("region").to_string(), "region");
    /// ```
    pub fn top_level(name: impl Into<String>) -> Address {
        Address { root: Root::Body, blocks: Vec::new(), attribute: Some(name.into()), implied_type: false }
    }

    /// A top-level block of a type with labels.
    ///
    /// ```
    /// assert_eq!(halite::Address::block("resource", ["aws_instance", "web"]).to_string(), "resource.aws_instance.web");
    /// ```
    pub fn block<S: AsRef<str>>(type_name: &str, labels: impl IntoIterator<Item = S>) -> Address {
        let labels: Vec<S> = labels.into_iter().collect();
        Address {
            root: Root::Body,
            blocks: vec![BlockStep::new(type_name, &labels, None)],
            attribute: None,
            implied_type: false,
        }
    }

    /// A block nested in this block. Panics if this address is not a
    /// block's: only blocks have nested blocks.
    ///
    /// ```
    /// let health = halite::Address::block("service", ["api"]).nested("health", [] as [&str; 0]);
    /// assert_eq!(health.to_string(), "service.api.health");
    /// ```
    pub fn nested<S: AsRef<str>>(mut self, type_name: &str, labels: impl IntoIterator<Item = S>) -> Address {
        assert!(self.is_block(), "only a block has nested blocks, not {self}");
        let labels: Vec<S> = labels.into_iter().collect();
        self.blocks.push(BlockStep::new(type_name, &labels, None));
        self
    }

    /// This block, as the one at `index` among the blocks of its body with
    /// the same type and labels. Panics if this address is not a block's.
    ///
    /// ```
    /// assert_eq!(halite::Address::block("rule", [] as [&str; 0]).at(2).to_string(), "rule[2]");
    /// ```
    pub fn at(mut self, index: usize) -> Address {
        assert!(self.is_block(), "only a block has a position among its kind, not {self}");
        if let Some(last) = self.blocks.last_mut() {
            last.index = Some(index);
        }
        self
    }

    /// The attribute `name` of this block. Panics if this address is not a
    /// block's.
    ///
    /// ```
    /// assert_eq!(halite::Address::block("target", ["app"]).attribute("output").to_string(), "target.app.output");
    /// ```
    pub fn attribute(mut self, name: impl Into<String>) -> Address {
        assert!(self.is_block(), "only a block has attributes, not {self}");
        self.attribute = Some(name.into());
        self
    }

    pub(crate) fn from_parts(blocks: Vec<BlockStep>, attribute: Option<String>) -> Address {
        Address { root: Root::Body, blocks, attribute, implied_type: false }
    }

    /// This address with its top-level block's type left unprinted (see
    /// `implied_type`), when it has labels to print instead.
    pub(crate) fn with_implied_type(mut self) -> Address {
        self.implied_type = self.blocks.first().is_some_and(|block| !block.labels.is_empty());
        self
    }

    /// Whether it is `var.NAME`.
    ///
    /// ```
    /// assert!(!halite::Address::local("x").is_variable());
    /// ```
    pub fn is_variable(&self) -> bool {
        self.root == Root::Variable
    }

    /// Whether it is `local.NAME`.
    ///
    /// ```
    /// assert!(halite::Address::local("x").is_local());
    /// ```
    pub fn is_local(&self) -> bool {
        self.root == Root::Local
    }

    /// Whether it is a block's address (not an attribute's or variable's).
    ///
    /// ```
    /// assert!(halite::Address::block("job", ["build"]).is_block());
    /// assert!(!halite::Address::block("job", ["build"]).attribute("cmd").is_block());
    /// ```
    pub fn is_block(&self) -> bool {
        self.root == Root::Body && !self.blocks.is_empty() && self.attribute.is_none()
    }

    /// The blocks, outermost first: the top-level block, then each nested
    /// one. Empty for a variable, a local or a top-level attribute.
    ///
    /// ```
    /// let address = halite::Address::block("a", ["x"]).nested("b", ["y"]).attribute("c");
    /// assert_eq!(address.blocks().len(), 2);
    /// ```
    pub fn blocks(&self) -> &[BlockStep] {
        &self.blocks
    }

    /// The type of the top-level block, if it is in one.
    ///
    /// ```
    /// assert_eq!(halite::Address::block("service", ["api"]).attribute("image").block_type(), Some("service"));
    /// assert_eq!(halite::Address::local("x").block_type(), None);
    /// ```
    pub fn block_type(&self) -> Option<&str> {
        self.blocks.first().map(BlockStep::type_name)
    }

    /// The labels of the top-level block (empty if it is in none).
    ///
    /// ```
    /// assert_eq!(halite::Address::block("service", ["api.v2"]).labels(), ["api.v2"]);
    /// ```
    pub fn labels(&self) -> &[String] {
        self.blocks.first().map_or(&[], BlockStep::labels)
    }

    /// The attribute's name (a variable's or a local's name); `None` for a
    /// block.
    ///
    /// ```
    /// assert_eq!(halite::Address::variable("v").attribute_name(), Some("v"));
    /// ```
    pub fn attribute_name(&self) -> Option<&str> {
        self.attribute.as_deref()
    }

    /// The block this is in: an attribute's block, or a nested block's
    /// enclosing one. `None` for a top-level block, a variable, a local or
    /// a top-level attribute.
    ///
    /// ```
    /// let block = halite::Address::block("service", ["api"]);
    /// assert_eq!(block.clone().attribute("image").parent(), Some(block.clone()));
    /// assert_eq!(block.parent(), None);
    /// ```
    pub fn parent(&self) -> Option<Address> {
        if self.root != Root::Body || self.blocks.is_empty() {
            return None;
        }
        let mut parent = self.clone();
        if parent.attribute.take().is_none() {
            parent.blocks.pop();
        }
        (!parent.blocks.is_empty()).then_some(parent)
    }
}

/// Whether `name` can be written after a `.`: an HCL identifier.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `name` as a step of a traversal: `.name`, or `["name"]` when it is not
/// an identifier (`first` leaves out the dot).
fn write_name(f: &mut fmt::Formatter<'_>, name: &str, first: bool) -> fmt::Result {
    if is_identifier(name) {
        if !first {
            f.write_str(".")?;
        }
        return f.write_str(name);
    }
    f.write_str("[\"")?;
    for c in name.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c.is_control() => write!(f, "\\u{:04X}", u32::from(c))?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"]")
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        match self.root {
            Root::Variable => {
                f.write_str("var")?;
                first = false;
            }
            Root::Local => {
                f.write_str("local")?;
                first = false;
            }
            Root::Body => {}
        }
        for (i, block) in self.blocks.iter().enumerate() {
            if !(i == 0 && self.implied_type) {
                write_name(f, &block.type_name, first)?;
                first = false;
            }
            for label in &block.labels {
                write_name(f, label, first)?;
                first = false;
            }
            if let Some(index) = block.index {
                write!(f, "[{index}]")?;
            }
        }
        if let Some(attribute) = &self.attribute {
            write_name(f, attribute, first)?;
        }
        Ok(())
    }
}

impl Address {
    /// Whether the printed form is `text`, compared as it is written out.
    fn prints_as(&self, text: &str) -> bool {
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(text);
        fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

/// An address equals its printed form, so that tests and programs compare
/// addresses with text as they read them.
impl PartialEq<str> for Address {
    fn eq(&self, other: &str) -> bool {
        self.prints_as(other)
    }
}

impl PartialEq<&str> for Address {
    fn eq(&self, other: &&str) -> bool {
        self.prints_as(other)
    }
}

impl PartialEq<String> for Address {
    fn eq(&self, other: &String) -> bool {
        self.prints_as(other)
    }
}

/// One step of an address's printed form: a name (written `.name` or
/// `["name"]`) or a position (`[N]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Name(String),
    Index(usize),
}

/// Why a text is not an address's printed form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) offset: usize,
    pub(crate) message: &'static str,
}

/// The steps of an address's printed form. The first step is a name, as
/// an identifier or in brackets.
pub(crate) fn segments(text: &str) -> Result<Vec<Segment>, SyntaxError> {
    let error = |offset: usize, message| Err(SyntaxError { offset, message });
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() || out.is_empty() {
        let dot = bytes.get(at) == Some(&b'.');
        if dot {
            if out.is_empty() {
                return error(at, "an address starts with a name");
            }
            at += 1;
        }
        match bytes.get(at) {
            Some(b'[') if !dot => {
                at += 1;
                if bytes.get(at) == Some(&b'"') {
                    let (name, end) = quoted(text, at + 1)?;
                    out.push(Segment::Name(name));
                    at = end;
                } else {
                    let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
                    if digits == 0 || (out.is_empty()) {
                        return error(at, "expected a quoted name or, after a name, a position");
                    }
                    let Ok(index) = text[at..at + digits].parse() else {
                        return error(at, "the position is too large");
                    };
                    out.push(Segment::Index(index));
                    at += digits;
                }
                if bytes.get(at) != Some(&b']') {
                    return error(at, "expected `]`");
                }
                at += 1;
            }
            _ if out.is_empty() || dot => {
                let name: String =
                    text[at..].chars().take_while(|&c| c.is_alphanumeric() || c == '_' || c == '-').collect();
                if !is_identifier(&name) {
                    return error(at, "expected a name");
                }
                at += name.len();
                out.push(Segment::Name(name));
            }
            _ => return error(at, "expected `.` or `[`"),
        }
    }
    Ok(out)
}

/// The string that starts at `at` (after its opening quote), and the
/// offset after its closing quote.
fn quoted(text: &str, mut at: usize) -> Result<(String, usize), SyntaxError> {
    let mut out = String::new();
    let mut chars = text[at..].chars();
    while let Some(c) = chars.next() {
        at += c.len_utf8();
        match c {
            '"' => return Ok((out, at)),
            '\\' => {
                let Some(escaped) = chars.next() else { break };
                at += escaped.len_utf8();
                match escaped {
                    '"' | '\\' => out.push(escaped),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        at += hex.len();
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(c) if hex.len() == 4 => out.push(c),
                            _ => return Err(SyntaxError { offset: at, message: "invalid `\\u` escape" }),
                        }
                    }
                    _ => return Err(SyntaxError { offset: at, message: "invalid escape" }),
                }
            }
            c => out.push(c),
        }
    }
    Err(SyntaxError { offset: text.len(), message: "unterminated quoted name" })
}

#[cfg(test)]
mod tests {
    use super::{Segment, segments};

    #[test]
    fn printed_forms_split_into_their_steps() {
        let name = |it: &str| Segment::Name(it.to_string());
        assert_eq!(
            segments(r#"service["api.v2"].step[1]["a \"b\"\\"]"#).unwrap(),
            [name("service"), name("api.v2"), name("step"), Segment::Index(1), name("a \"b\"\\")]
        );
        assert_eq!(segments(r#"["x y"].z"#).unwrap(), [name("x y"), name("z")]);
        for bad in ["", ".a", "a.", "a..b", "a[", "a[x]", "a[\"x]", "[0]", "a b", "a.1"] {
            assert!(segments(bad).is_err(), "{bad:?}");
        }
    }
}
