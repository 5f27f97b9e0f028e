//! The XML reports of `halite check`, written with quick-xml:
//!
//! - Checkstyle's (`<checkstyle version="4.3">`, a `<file>` per file
//!   checked, an `<error>` per diagnostic with its line, column, severity,
//!   message and `source`, the code), which CI services and editors read
//!   from many linters;
//! - JUnit's (`<testsuites>`, a `<testsuite>` per file, a failing
//!   `<testcase>` per diagnostic, a passing one for a file without any),
//!   which every CI service shows as test results.
//!
//! Neither records a time, so the same files give the same bytes. Text
//! that XML 1.0 cannot hold even escaped (control characters, which a
//! message quoting a bad byte may contain) is replaced by U+FFFD; line
//! breaks in attributes are written as character references, which a
//! parser keeps rather than normalises to spaces.

use std::borrow::Cow;

use camino::Utf8PathBuf;
use halite::host::LocatedDiagnostic;
use quick_xml::{
    Writer,
    events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event, attributes::Attribute},
    name::QName,
};

use crate::render;

type Files = [(Utf8PathBuf, Vec<LocatedDiagnostic>)];

/// Checkstyle's XML report: every file checked, in the order given.
pub(crate) fn checkstyle(files: &Files) -> String {
    let mut xml = Xml::new();
    xml.start(element("checkstyle").with(attribute("version", "4.3")));
    for (path, diagnostics) in files {
        let file = element("file").with(attribute("name", path.as_str()));
        if diagnostics.is_empty() {
            xml.empty(file);
            continue;
        }
        xml.start(file);
        for located in diagnostics {
            let diagnostic = &located.diagnostic;
            xml.empty(
                element("error")
                    .with(attribute("line", &located.start.line.to_string()))
                    .with(attribute("column", &located.start.column.to_string()))
                    .with(attribute("severity", diagnostic.severity.as_str()))
                    .with(attribute("message", &render::headline(diagnostic)))
                    .with(attribute("source", &format!("halite.{}", diagnostic.code))),
            );
        }
        xml.end("file");
    }
    xml.end("checkstyle");
    xml.finish()
}

/// JUnit's XML report: a test suite per file checked, in the order given,
/// each diagnostic a failing test case (its body the concise line, then
/// the notes), a file without one a passing case.
pub(crate) fn junit(files: &Files) -> String {
    let tests: usize = files.iter().map(|(_, diagnostics)| diagnostics.len().max(1)).sum();
    let failures: usize = files.iter().map(|(_, diagnostics)| diagnostics.len()).sum();
    let mut xml = Xml::new();
    xml.start(
        element("testsuites")
            .with(attribute("name", "halite check"))
            .with(attribute("tests", &tests.to_string()))
            .with(attribute("failures", &failures.to_string()))
            .with(attribute("errors", "0")),
    );
    for (path, diagnostics) in files {
        xml.start(
            element("testsuite")
                .with(attribute("name", path.as_str()))
                .with(attribute("tests", &diagnostics.len().max(1).to_string()))
                .with(attribute("failures", &diagnostics.len().to_string()))
                .with(attribute("errors", "0"))
                .with(attribute("skipped", "0")),
        );
        let case = |name: &str, line: u32| {
            element("testcase")
                .with(attribute("name", name))
                .with(attribute("classname", path.as_str()))
                .with(attribute("file", path.as_str()))
                .with(attribute("line", &line.to_string()))
        };
        if diagnostics.is_empty() {
            xml.empty(case("no diagnostics", 1));
        }
        for located in diagnostics {
            let diagnostic = &located.diagnostic;
            let name = format!("{} at {}:{}", diagnostic.code, located.start.line, located.start.column);
            xml.start(case(&name, located.start.line));
            xml.start(
                element("failure")
                    .with(attribute("message", &diagnostic.message))
                    .with(attribute("type", diagnostic.severity.as_str())),
            );
            let mut body = render::concise(located);
            for note in &diagnostic.notes {
                body.push_str("\n\n");
                body.push_str(note);
            }
            xml.text(&body);
            xml.end("failure");
            xml.end("testcase");
        }
        xml.end("testsuite");
    }
    xml.end("testsuites");
    xml.finish()
}

/// An XML document being written, indented by two spaces.
struct Xml {
    writer: Writer<Vec<u8>>,
}

impl Xml {
    fn new() -> Xml {
        let mut xml = Xml { writer: Writer::new_with_indent(Vec::new(), b' ', 2) };
        xml.write(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        xml
    }

    fn start(&mut self, element: BytesStart<'_>) {
        self.write(Event::Start(element));
    }

    fn empty(&mut self, element: BytesStart<'_>) {
        self.write(Event::Empty(element));
    }

    fn end(&mut self, name: &str) {
        self.write(Event::End(BytesEnd::new(name)));
    }

    fn text(&mut self, text: &str) {
        self.write(Event::Text(BytesText::new(&xml_chars(text))));
    }

    /// Writing to a vector cannot fail.
    fn write(&mut self, event: Event<'_>) {
        let _ = self.writer.write_event(event);
    }

    fn finish(self) -> String {
        let mut bytes = self.writer.into_inner();
        bytes.push(b'\n');
        // Everything written was a `str`.
        String::from_utf8(bytes).unwrap_or_default()
    }
}

fn element(name: &str) -> BytesStart<'_> {
    BytesStart::new(name)
}

trait With<'a> {
    fn with(self, attribute: Attribute<'a>) -> Self;
}

impl<'a> With<'a> for BytesStart<'a> {
    fn with(mut self, attribute: Attribute<'a>) -> Self {
        self.push_attribute(attribute);
        self
    }
}

/// An attribute, its value escaped: markup characters as entities, and
/// tabs and line breaks as character references, which a parser keeps.
fn attribute<'a>(key: &'a str, value: &str) -> Attribute<'a> {
    let escaped = quick_xml::escape::escape(xml_chars(value).as_ref())
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;");
    Attribute { key: QName(key.as_bytes()), value: Cow::Owned(escaped.into_bytes()) }
}

/// `text` with the characters XML 1.0 does not allow (control characters
/// other than tab and line breaks, U+FFFE and U+FFFF) replaced by U+FFFD.
fn xml_chars(text: &str) -> Cow<'_, str> {
    let allowed =
        |c: char| matches!(c, '\t' | '\n' | '\r') || (!c.is_control() && c != '\u{FFFE}' && c != '\u{FFFF}');
    if text.chars().all(allowed) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.chars().map(|c| if allowed(c) { c } else { '\u{FFFD}' }).collect())
    }
}
