//! The language server end to end: a client on one end of an in-memory
//! connection, the server on the other, over a copy of
//! `test-data/lsp/workspace` (a Terraform module calling a child module,
//! with a `halite.toml` and an ignore comment), and of
//! `test-data/lsp/features` (a module with resources, a data source, a
//! module call and locals whose values are known).

use std::{
    collections::VecDeque,
    path::Path,
    str::FromStr,
    thread::JoinHandle,
    time::{Duration, Instant},
};

use camino::{Utf8Path, Utf8PathBuf};
use lsp::Options;
use lsp_server::{Connection, Message, Notification, Request, RequestId, ResponseError};
use lsp_types::{
    self as types, Position, Range, TextDocumentIdentifier, TextDocumentPositionParams, Uri,
    notification::Notification as _,
};
use serde_json::{Value as Json, json};

const TIMEOUT: Duration = Duration::from_secs(30);

fn test_data() -> Utf8PathBuf {
    Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/lsp")
}

/// A copy of the test workspace in a temporary directory.
fn workspace() -> (tempfile::TempDir, Utf8PathBuf) {
    copy_of("workspace")
}

/// A copy of `test-data/lsp/NAME` in a temporary directory.
fn copy_of(name: &str) -> (tempfile::TempDir, Utf8PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join(name);
    copy_dir(test_data().join(name).as_std_path(), root.as_std_path());
    (dir, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn uri(path: &Utf8Path) -> Uri {
    lsp::path_to_uri(path)
}

struct Client {
    connection: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    /// Notifications received while waiting for something else.
    notifications: VecDeque<Notification>,
    /// What the server said it can do.
    capabilities: types::ServerCapabilities,
}

impl Client {
    fn start(roots: &[&Utf8Path]) -> Client {
        let (server, connection) = Connection::memory();
        // Reports in parts of a few files, as a workspace of thousands
        // goes.
        let options =
            Options { debounce: Duration::from_millis(20), debug_requests: true, files_per_report_part: 3 };
        let server = std::thread::spawn(move || lsp::run(&server, options));
        let mut client = Client {
            connection,
            server: Some(server),
            next_id: 0,
            notifications: VecDeque::new(),
            capabilities: types::ServerCapabilities::default(),
        };
        let folders: Vec<types::WorkspaceFolder> = roots
            .iter()
            .map(|root| types::WorkspaceFolder {
                uri: uri(root),
                name: root.file_name().unwrap().to_string(),
            })
            .collect();
        let params = types::InitializeParams { workspace_folders: Some(folders), ..Default::default() };
        let result = client.request::<types::request::Initialize>(params).unwrap();
        assert!(result.capabilities.rename_provider.is_some());
        client.capabilities = result.capabilities;
        client.notify::<types::notification::Initialized>(types::InitializedParams {});
        client
    }

    fn send_request(&mut self, method: &str, params: Json) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection
            .sender
            .send(Message::Request(Request::new(id.clone(), method.to_string(), params)))
            .unwrap();
        id
    }

    fn response(&mut self, id: &RequestId) -> Result<Json, ResponseError> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self
                .connection
                .receiver
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("no response in time");
            match message {
                Message::Response(response) if response.id == *id => return response.response_result,
                Message::Response(_) => {}
                Message::Notification(notification) => self.notifications.push_back(notification),
                Message::Request(request) => panic!("unexpected request from the server: {request:?}"),
            }
        }
    }

    fn raw(&mut self, method: &str, params: Json) -> Result<Json, ResponseError> {
        let id = self.send_request(method, params);
        self.response(&id)
    }

    fn request<R: types::request::Request>(&mut self, params: R::Params) -> Result<R::Result, ResponseError> {
        let result = self.raw(R::METHOD, serde_json::to_value(params).unwrap())?;
        Ok(serde_json::from_value(result).unwrap())
    }

    fn notify<N: types::notification::Notification>(&mut self, params: N::Params) {
        let notification = Notification::new(N::METHOD.to_string(), params);
        self.connection.sender.send(Message::Notification(notification)).unwrap();
    }

    /// Waits for diagnostics of `path` that `accept` takes.
    fn diagnostics(
        &mut self,
        path: &Utf8Path,
        accept: impl Fn(&[types::Diagnostic]) -> bool,
    ) -> Vec<types::Diagnostic> {
        let uri = uri(path);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            while let Some(notification) = self.notifications.pop_front() {
                if notification.method != types::notification::PublishDiagnostics::METHOD {
                    continue;
                }
                let params: types::PublishDiagnosticsParams =
                    serde_json::from_value(notification.params).unwrap();
                if params.uri == uri && accept(&params.diagnostics) {
                    return params.diagnostics;
                }
            }
            match self.connection.receiver.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Message::Notification(notification)) => self.notifications.push_back(notification),
                Ok(_) => {}
                Err(_) => panic!("no acceptable diagnostics for {path} in time"),
            }
        }
    }

    fn open(&mut self, path: &Utf8Path, text: &str) {
        self.notify::<types::notification::DidOpenTextDocument>(types::DidOpenTextDocumentParams {
            text_document: types::TextDocumentItem {
                uri: uri(path),
                language_id: "terraform".to_string(),
                version: 1,
                text: text.to_string(),
            },
        });
    }

    fn change(&mut self, path: &Utf8Path, range: Option<Range>, text: &str) {
        self.notify::<types::notification::DidChangeTextDocument>(types::DidChangeTextDocumentParams {
            text_document: types::VersionedTextDocumentIdentifier { uri: uri(path), version: 2 },
            content_changes: vec![types::TextDocumentContentChangeEvent {
                range,
                range_length: None,
                text: text.to_string(),
            }],
        });
    }

    fn shutdown(mut self) {
        self.request::<types::request::Shutdown>(()).unwrap();
        self.notify::<types::notification::Exit>(());
        let server = self.server.take().unwrap();
        assert_eq!(server.join().unwrap(), Ok(()));
    }
}

fn at(path: &Utf8Path, line: u32, character: u32) -> TextDocumentPositionParams {
    TextDocumentPositionParams {
        text_document: TextDocumentIdentifier { uri: uri(path) },
        position: Position::new(line, character),
    }
}

/// `code line:column` of each diagnostic, in order.
fn summary(diagnostics: &[types::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|it| {
            let code = match &it.code {
                Some(types::NumberOrString::String(code)) => code.clone(),
                _ => String::new(),
            };
            let severity =
                if it.severity == Some(types::DiagnosticSeverity::ERROR) { "error" } else { "warning" };
            format!("{severity} {code} {}:{}", it.range.start.line + 1, it.range.start.character + 1)
        })
        .collect()
}

fn codes(diagnostics: &[types::Diagnostic]) -> Vec<String> {
    summary(diagnostics).into_iter().map(|it| it.split(' ').nth(1).unwrap().to_string()).collect()
}

fn hover_text(client: &mut Client, path: &Utf8Path, line: u32, character: u32) -> String {
    let params = types::HoverParams {
        text_document_position_params: at(path, line, character),
        work_done_progress_params: Default::default(),
    };
    match client.request::<types::request::HoverRequest>(params).unwrap() {
        Some(types::Hover { contents: types::HoverContents::Markup(markup), .. }) => markup.value,
        other => panic!("no hover text: {other:?}"),
    }
}

fn definition(client: &mut Client, path: &Utf8Path, line: u32, character: u32) -> (Utf8PathBuf, u32) {
    let params = types::GotoDefinitionParams {
        text_document_position_params: at(path, line, character),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    match client.request::<types::request::GotoDefinition>(params).unwrap() {
        Some(types::GotoDefinitionResponse::Scalar(location)) => {
            (lsp::uri_to_path(&location.uri).unwrap(), location.range.start.line)
        }
        other => panic!("no definition: {other:?}"),
    }
}

/// The text after applying edits (given in any order, not overlapping).
fn apply_edits(text: &str, edits: &[types::TextEdit]) -> String {
    let index = lsp::LineIndex::new(text);
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|edit| {
            (
                index.offset(edit.range.start).unwrap(),
                index.offset(edit.range.end).unwrap(),
                edit.new_text.as_str(),
            )
        })
        .collect();
    edits.sort_by_key(|it| std::cmp::Reverse(it.0));
    let mut out = text.to_string();
    for (start, end, new_text) in edits {
        out.replace_range(start..end, new_text);
    }
    out
}

#[test]
fn diagnostics_are_checks_and_follow_edits() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    // Exactly `halite check`'s: legacy-index an error by halite.toml, the
    // interpolation-only warning ignored by its comment.
    let found = client.diagnostics(&main, |it| !it.is_empty());
    assert_eq!(
        summary(&found),
        ["warning unused-declaration 3:3", "error legacy-index 4:26", "warning unused-declaration 6:3"]
    );
    assert_eq!(found[1].data, Some(json!({ "explain": "halite rule legacy-index" })));
    assert!(
        found[0].message.contains("Nothing in this module refers to local.zone_count"),
        "{}",
        found[0].message
    );

    // A bad edit makes a diagnostic appear; its fix makes it go.
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text);
    let edit = Range::new(Position::new(1, 27), Position::new(1, 33));
    client.change(&main, Some(edit), "regoin");
    let found = client.diagnostics(&main, |it| codes(it).contains(&"undeclared-reference".to_string()));
    let undeclared =
        found.iter().find(|it| codes(std::slice::from_ref(it)) == ["undeclared-reference"]).unwrap();
    assert_eq!(undeclared.range.start, Position::new(1, 23));
    // Pulled, they are the same.
    let pulled = client
        .request::<types::request::DocumentDiagnosticRequest>(types::DocumentDiagnosticParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            identifier: None,
            previous_result_id: None,
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap();
    let types::DocumentDiagnosticReportResult::Report(types::DocumentDiagnosticReport::Full(pulled)) = pulled
    else {
        panic!("not a full report")
    };
    assert_eq!(summary(&pulled.full_document_diagnostic_report.items), summary(&found));

    client.change(&main, Some(edit), "region");
    let found = client.diagnostics(&main, |it| !codes(it).contains(&"undeclared-reference".to_string()));
    assert_eq!(codes(&found), ["unused-declaration", "legacy-index", "unused-declaration"]);

    // Closing the document reads the file from disk again.
    client.change(&main, None, "locals {\n  a = var.nope\n}\n");
    client.diagnostics(&main, |it| codes(it) == ["unused-declaration", "undeclared-reference"]);
    client.notify::<types::notification::DidCloseTextDocument>(types::DidCloseTextDocumentParams {
        text_document: TextDocumentIdentifier { uri: uri(&main) },
    });
    client.diagnostics(&main, |it| codes(it) == ["unused-declaration", "legacy-index", "unused-declaration"]);
    client.shutdown();
}

#[test]
fn watched_files_and_several_folders() {
    let (_dir, root) = workspace();
    let other = root.parent().unwrap().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("main.hcl"), "locals {\n  a = local.b\n}\n").unwrap();
    let mut client = Client::start(&[&root, &other]);
    client.diagnostics(&other.join("main.hcl"), |it| codes(it) == ["undeclared-reference"]);
    client.diagnostics(&root.join("main.tf"), |it| !it.is_empty());

    // A file created outside the editor.
    let extra = root.join("extra.tf");
    std::fs::write(&extra, "output \"x\" {\n  value = var.missing\n}\n").unwrap();
    let event = |typ| types::DidChangeWatchedFilesParams {
        changes: vec![types::FileEvent { uri: uri(&extra), typ }],
    };
    client.notify::<types::notification::DidChangeWatchedFiles>(event(types::FileChangeType::CREATED));
    client.diagnostics(&extra, |it| codes(it) == ["undeclared-reference"]);
    std::fs::remove_file(&extra).unwrap();
    client.notify::<types::notification::DidChangeWatchedFiles>(event(types::FileChangeType::DELETED));
    client.diagnostics(&extra, <[_]>::is_empty);

    // A folder removed takes its files' diagnostics with it.
    let folder = types::WorkspaceFolder { uri: uri(&other), name: "other".to_string() };
    client.notify::<types::notification::DidChangeWorkspaceFolders>(types::DidChangeWorkspaceFoldersParams {
        event: types::WorkspaceFoldersChangeEvent { added: Vec::new(), removed: vec![folder] },
    });
    client.diagnostics(&other.join("main.hcl"), <[_]>::is_empty);
    client.shutdown();
}

/// A module that appears after a request (the server keeps the modules'
/// map between requests) is found by the next one: the definition of a
/// call's output in a child module created outside the editor.
#[test]
fn a_module_created_after_a_request_is_found_by_the_next() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    client.diagnostics(&main, |it| !it.is_empty());
    assert_eq!(definition(&mut client, &main, 1, 30), (root.join("variables.tf"), 0));

    let child = root.join("modules/added/main.tf");
    std::fs::create_dir_all(child.parent().unwrap()).unwrap();
    std::fs::write(&child, "output \"z\" {\n  value = 1\n}\n").unwrap();
    let caller = root.join("added.tf");
    let text = "module \"added\" {\n  source = \"./modules/added\"\n}\n\noutput \"y\" {\n  value = module.added.z\n}\n\noutput \"w\" {\n  value = var.nope\n}\n";
    std::fs::write(&caller, text).unwrap();
    let changes = [&child, &caller]
        .map(|path| types::FileEvent { uri: uri(path), typ: types::FileChangeType::CREATED })
        .to_vec();
    client
        .notify::<types::notification::DidChangeWatchedFiles>(types::DidChangeWatchedFilesParams { changes });
    client.diagnostics(&caller, |it| codes(it) == ["undeclared-reference"]);
    assert_eq!(definition(&mut client, &caller, 5, 23), (child, 0));
    client.shutdown();
}

#[test]
fn formatting_is_halite_fmts() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text);
    let options = types::FormattingOptions { tab_size: 2, insert_spaces: true, ..Default::default() };
    let whole = |client: &mut Client| {
        client
            .request::<types::request::Formatting>(types::DocumentFormattingParams {
                text_document: TextDocumentIdentifier { uri: uri(&main) },
                options: options.clone(),
                work_done_progress_params: Default::default(),
            })
            .unwrap()
            .unwrap()
    };
    // `halite fmt - --stdin-filename main.tf < workspace/main.tf`.
    let expected = std::fs::read_to_string(test_data().join("main.tf.formatted")).unwrap();
    assert_eq!(apply_edits(&text, &whole(&mut client)), expected);

    // A range gets the changes within it: the aligned lines, not the
    // interpolation below.
    let edits = client
        .request::<types::request::RangeFormatting>(types::DocumentRangeFormattingParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            range: Range::new(Position::new(1, 0), Position::new(3, 10)),
            options: options.clone(),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let formatted = apply_edits(&text, &edits);
    assert!(formatted.contains("  name       = \"net-${var.region}\"\n"), "{formatted}");
    assert!(formatted.contains("quoted_name = \"${local.name}\""), "{formatted}");

    // A file with syntax errors is not formatted.
    client.change(&main, None, "locals {\n  a =   \n");
    assert_eq!(whole(&mut client), []);
    client.shutdown();
}

#[test]
fn hover_definition_references_symbols() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let child = root.join("modules/network/main.tf");
    let mut client = Client::start(&[&root]);
    client.diagnostics(&main, |it| !it.is_empty());

    // `var.region` in `"net-${var.region}"`: value, type, description.
    let text = hover_text(&mut client, &main, 1, 30);
    // The module is one any caller may call, as `halite check` takes it:
    // its variables are known after apply, and what reads them.
    assert_eq!(
        text,
        "**var.region**: `string`\n\n(known after apply)\n\nDefault: `\"eu-west-1\"`\n\nWhere the network lives."
    );
    let text = hover_text(&mut client, &main, 1, 4);
    assert_eq!(text, "**local.name**: `string`\n\n(known after apply; not null, starts with `\"net-\"`)");
    let text = hover_text(&mut client, &main, 2, 4);
    assert_eq!(text, "**local.zone_count**: `number`\n\n(known after apply; not null)");
    let text = hover_text(&mut client, &main, 2, 18);
    assert!(text.starts_with("```hcl\nlength("), "{text}");
    // An output of the child module, through the call.
    let text = hover_text(&mut client, &main, 15, 26);
    assert!(text.starts_with("**output.id**"), "{text}");
    assert!(text.ends_with("The network's identifier."), "{text}");

    assert_eq!(definition(&mut client, &main, 1, 30), (root.join("variables.tf"), 0));
    assert_eq!(definition(&mut client, &main, 5, 25), (main.clone(), 1));
    assert_eq!(definition(&mut client, &main, 15, 26), (child.clone(), 9));
    assert_eq!(definition(&mut client, &main, 15, 14), (main.clone(), 8));

    let references = client
        .request::<types::request::References>(types::ReferenceParams {
            text_document_position: at(&main, 1, 4),
            context: types::ReferenceContext { include_declaration: true },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let lines: Vec<u32> = references.iter().map(|it| it.range.start.line).collect();
    assert_eq!(lines, [1, 5, 11]);

    let symbols = client
        .request::<types::request::DocumentSymbolRequest>(types::DocumentSymbolParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let types::DocumentSymbolResponse::Nested(symbols) = symbols else { panic!("flat symbols") };
    let names: Vec<&str> = symbols.iter().map(|it| it.name.as_str()).collect();
    assert_eq!(names, ["locals", "module \"network\"", "output \"network_id\"", "output \"zones\""]);
    let locals: Vec<&str> = symbols[0].children.iter().flatten().map(|it| it.name.as_str()).collect();
    assert_eq!(locals, ["name", "zone_count", "first_zone", "quoted_name"]);
    client.shutdown();
}

#[test]
fn rename_across_files_and_callers() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let child = root.join("modules/network/main.tf");
    let mut client = Client::start(&[&root]);
    client.diagnostics(&main, |it| !it.is_empty());
    let rename = |client: &mut Client, path: &Utf8Path, line, character, new_name: &str| {
        client.request::<types::request::Rename>(types::RenameParams {
            text_document_position: at(path, line, character),
            new_name: new_name.to_string(),
            work_done_progress_params: Default::default(),
        })
    };
    let changed = |edit: types::WorkspaceEdit| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = edit
            .changes
            .unwrap()
            .into_iter()
            .map(|(uri, edits)| {
                let path = lsp::uri_to_path(&uri).unwrap();
                let text = std::fs::read_to_string(&path).unwrap();
                (path.strip_prefix(&root).unwrap().to_string(), apply_edits(&text, &edits))
            })
            .collect();
        out.sort();
        out
    };

    // A variable, from a reference: its declaration in another file too.
    let prepared = client.request::<types::request::PrepareRenameRequest>(at(&main, 1, 30)).unwrap();
    assert_eq!(
        prepared,
        Some(types::PrepareRenameResponse::RangeWithPlaceholder {
            range: Range::new(Position::new(1, 27), Position::new(1, 33)),
            placeholder: "region".to_string()
        })
    );
    let edit = rename(&mut client, &main, 1, 30, "location").unwrap().unwrap();
    let files = changed(edit);
    assert_eq!(files.iter().map(|it| it.0.as_str()).collect::<Vec<_>>(), ["main.tf", "variables.tf"]);
    assert!(files[0].1.contains("\"net-${var.location}\""));
    assert!(files[1].1.starts_with("variable \"location\" {"));

    // A local, from its declaration.
    let edit = rename(&mut client, &main, 1, 3, "label").unwrap().unwrap();
    let files = changed(edit);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].1.matches("local.label").count(), 2);
    assert!(files[0].1.contains("  label        = \"net-"));

    // A child's variable: the caller's argument is renamed with it.
    let edit = rename(&mut client, &child, 11, 24, "title").unwrap().unwrap();
    let files = changed(edit);
    assert_eq!(
        files.iter().map(|it| it.0.as_str()).collect::<Vec<_>>(),
        ["main.tf", "modules/network/main.tf"]
    );
    assert!(files[0].1.contains("  title   = local.name"), "{}", files[0].1);
    assert!(files[1].1.contains("variable \"title\""));

    // Refused, with the reason.
    let error = rename(&mut client, &main, 1, 3, "zone_count").unwrap_err();
    assert_eq!(error.message, "local.zone_count is already declared");
    // An output, through the call.
    let prepared = client.request::<types::request::PrepareRenameRequest>(at(&main, 15, 26)).unwrap();
    assert_eq!(
        prepared,
        Some(types::PrepareRenameResponse::RangeWithPlaceholder {
            range: Range::new(Position::new(15, 25), Position::new(15, 27)),
            placeholder: "id".to_string()
        })
    );
    let error = client.request::<types::request::PrepareRenameRequest>(at(&main, 9, 4)).unwrap_err();
    assert_eq!(error.message, "nothing that can be renamed is here");
    let whole = root.join("whole.tf");
    client.open(&whole, "output \"all\" {\n  value = local\n}\n");
    let error = rename(&mut client, &main, 1, 3, "label").unwrap_err();
    assert_eq!(
        error.message,
        format!("`local` is used whole at {whole}:2: the names read through it cannot be renamed")
    );
    client.shutdown();
}

/// The completion list at a position (the server answers with a list).
fn completion_list(client: &mut Client, path: &Utf8Path, line: u32, character: u32) -> types::CompletionList {
    let items = client
        .request::<types::request::Completion>(types::CompletionParams {
            text_document_position: at(path, line, character),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        })
        .unwrap();
    match items {
        Some(types::CompletionResponse::List(list)) => list,
        other => panic!("no completion: {other:?}"),
    }
}

/// The labels of the completion list at a position, and whether the list
/// says it is incomplete.
fn completion_labels(client: &mut Client, path: &Utf8Path, line: u32, character: u32) -> (Vec<String>, bool) {
    let list = completion_list(client, path, line, character);
    (list.items.into_iter().map(|it| it.label).collect(), list.is_incomplete)
}

#[test]
fn completion_of_names_and_functions() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text);
    client.change(&main, Some(Range::new(Position::new(19, 32), Position::new(19, 32))), " + var.");
    let complete = |client: &mut Client, line, character| completion_labels(client, &main, line, character).0;
    assert_eq!(complete(&mut client, 19, 39), ["region", "zones"]);
    // What is typed of the name filters the functions.
    let names = complete(&mut client, 19, 12);
    assert_eq!(names, ["upper"]);
    let names = complete(&mut client, 19, 10);
    assert!(names.contains(&"length".to_string()) && names.contains(&"local".to_string()), "{names:?}");
    client.shutdown();
}

#[test]
fn completion_of_many_names_is_cut_short_and_says_so() {
    let (_dir, root) = workspace();
    let many = root.join("many.tf");
    let mut text = String::from("locals {\n");
    for i in 0..1200 {
        text.push_str(&format!("  l{i:04} = {i}\n"));
    }
    text.push_str("}\n\noutput \"o\" {\n  value = local.l11\n}\n");
    let line = 1200 + 4;
    let mut client = Client::start(&[&root]);
    client.open(&many, &text);
    let mut complete = |character| completion_labels(&mut client, &many, line, character);
    // After `local.`: the first thousand names in order (the workspace's
    // other locals among them), and a flag that there are more.
    let (names, incomplete) = complete(16);
    assert_eq!(names.len(), 1000, "the most one answer carries");
    assert!(incomplete);
    assert!(names.is_sorted() && names.contains(&"l0000".to_string()), "{names:?}");
    // After `local.l11`: exactly the hundred names that start so.
    let (names, incomplete) = complete(19);
    let expected: Vec<String> = (1100..1200).map(|i| format!("l{i:04}")).collect();
    assert_eq!((names, incomplete), (expected, false));
    client.shutdown();
}

#[test]
fn bad_input_and_cancellation() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text);

    // A panic is an error answer, and the server goes on.
    let error = client.raw("halite/panic", Json::Null).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::InternalError as i32);
    assert!(error.message.contains("a request that panics"), "{}", error.message);
    assert!(hover_text(&mut client, &main, 1, 30).starts_with("**var.region**"));

    // Unknown documents have nothing; positions outside one are errors.
    let unknown = root.join("nowhere.tf");
    let params = types::HoverParams {
        text_document_position_params: at(&unknown, 0, 0),
        work_done_progress_params: Default::default(),
    };
    assert_eq!(client.request::<types::request::HoverRequest>(params).unwrap(), None);
    let params = json!({ "textDocument": { "uri": "untitled:Untitled-1" }, "position": { "line": 0, "character": 0 } });
    assert_eq!(client.raw("textDocument/hover", params).unwrap(), Json::Null);
    let params = types::HoverParams {
        text_document_position_params: at(&main, 400, 2),
        work_done_progress_params: Default::default(),
    };
    let error = client.request::<types::request::HoverRequest>(params).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::InvalidParams as i32);
    let error = client.raw("textDocument/hover", json!({ "nonsense": true })).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::InvalidParams as i32);
    assert_eq!(
        client.raw("halite/unknown", Json::Null).unwrap_err().code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );

    // Binary and half-typed files answer like any other.
    let binary = root.join("binary.tf");
    client.open(&binary, "\u{0}\u{1}\u{7f}ELF\u{0}locals {\n");
    client.diagnostics(&binary, |it| !it.is_empty());
    let params = types::HoverParams {
        text_document_position_params: at(&binary, 0, 3),
        work_done_progress_params: Default::default(),
    };
    assert_eq!(client.request::<types::request::HoverRequest>(params).unwrap(), None);
    let half = "locals {\n  a = var.\n  b = local.a[\n".to_string() + &"x = [\n".repeat(20_000);
    client.change(&main, None, &half);
    client.diagnostics(&main, |it| codes(it).first().is_some_and(|code| code != "unused-declaration"));
    for (line, character) in [(0, 3), (1, 10), (2, 12), (5000, 2)] {
        let params = types::HoverParams {
            text_document_position_params: at(&main, line, character),
            work_done_progress_params: Default::default(),
        };
        assert!(client.request::<types::request::HoverRequest>(params).is_ok());
    }

    // An edit cancels the requests in flight: they answer ContentModified.
    let waiting = client.send_request("halite/wait", Json::Null);
    std::thread::sleep(Duration::from_millis(50));
    client.change(&main, None, &text);
    let error = client.response(&waiting).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::ContentModified as i32);
    // So does the client's `$/cancelRequest`.
    let waiting = client.send_request("halite/wait", Json::Null);
    let id = client.next_id;
    client
        .notify::<types::notification::Cancel>(types::CancelParams { id: types::NumberOrString::Number(id) });
    let error = client.response(&waiting).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::RequestCanceled as i32);
    assert!(hover_text(&mut client, &main, 1, 30).starts_with("**var.region**"));
    client.shutdown();
}

#[test]
fn uris_with_escapes() {
    let path = Utf8Path::new("/tmp/a b/c.tf");
    assert_eq!(lsp::uri_to_path(&Uri::from_str("file:///tmp/a%20b/c.tf").unwrap()).as_deref(), Some(path));
}

/// Every file's HCL paths below `dir`, sorted, as a walk of `halite check`
/// finds them (no hidden names).
fn hcl_files(dir: &Utf8Path) -> Vec<Utf8PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = Utf8PathBuf::from_path_buf(entry.unwrap().path()).unwrap();
        if path.file_name().unwrap().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            out.extend(hcl_files(&path));
        } else if vfs::FileKind::of(&path).is_some() {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn diagnostics_equal_checks_on_checks_test_data() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("cli");
    for name in ["modules", "project", "syntax-error", "warnings-only", "opentofu"] {
        copy_dir(test_data().join("../check/cli").join(name).as_std_path(), root.join(name).as_std_path());
    }
    copy_dir(test_data().join("workspace").as_std_path(), root.join("workspace").as_std_path());
    let paths = hcl_files(&root);
    let checked = host::check::check_paths(
        &paths,
        host::Limits::default(),
        |db, index, outcome| {
            let text =
                db.files().get(&paths[index]).map(|file| file.text(db).to_string()).unwrap_or_default();
            let index = lsp::LineIndex::new(&text);
            outcome
                .unwrap()
                .iter()
                .map(|it| {
                    let range = index.range(it.diagnostic.range);
                    format!(
                        "{} {}:{}-{}:{} {}",
                        it.diagnostic.code,
                        range.start.line,
                        range.start.character,
                        range.end.line,
                        range.end.character,
                        it.diagnostic.message
                    )
                })
                .collect::<Vec<String>>()
        },
        |_| {},
    )
    .unwrap();
    let mut client = Client::start(&[&root]);
    let mut found_any = 0;
    for (path, expected) in paths.iter().zip(checked) {
        let pulled = client
            .request::<types::request::DocumentDiagnosticRequest>(types::DocumentDiagnosticParams {
                text_document: TextDocumentIdentifier { uri: uri(path) },
                identifier: None,
                previous_result_id: None,
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            })
            .unwrap();
        let types::DocumentDiagnosticReportResult::Report(types::DocumentDiagnosticReport::Full(pulled)) =
            pulled
        else {
            panic!("not a full report")
        };
        let served: Vec<String> = pulled
            .full_document_diagnostic_report
            .items
            .iter()
            .map(|it| {
                let code = match &it.code {
                    Some(types::NumberOrString::String(code)) => code.clone(),
                    _ => String::new(),
                };
                let message = it.message.split([':', '\n']).next().unwrap();
                let r = it.range;
                format!(
                    "{code} {}:{}-{}:{} {message}",
                    r.start.line, r.start.character, r.end.line, r.end.character
                )
            })
            .collect();
        let expected: Vec<String> =
            expected.iter().map(|it| it.split([':', '\n']).take(3).collect::<Vec<_>>().join(":")).collect();
        let served_cut: Vec<String> =
            served.iter().map(|it| it.split([':', '\n']).take(3).collect::<Vec<_>>().join(":")).collect();
        assert_eq!(served_cut, expected, "{path}");
        found_any += expected.len();
    }
    assert!(found_any > 10, "{found_any} diagnostics");
    client.shutdown();
}

#[test]
fn open_document_has_its_own_diagnostics_before_the_first_report() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("big");
    std::fs::create_dir_all(&root).unwrap();
    // Enough files that reading them takes longer than the open below.
    for at in 0..400 {
        std::fs::write(
            root.join(format!("f{at:03}.tf")),
            format!("output \"o{at}\" {{\n  value = {at}\n}}\n"),
        )
        .unwrap();
    }
    let main = root.join("main.tf");
    let text = "locals {\n  a = \"${local.b}\"\n}\n";
    std::fs::write(&main, text).unwrap();
    let mut client = Client::start(&[&root]);
    client.open(&main, text);
    // Its syntax and lints, at once: the module rules need the others.
    let pulled = client
        .request::<types::request::DocumentDiagnosticRequest>(types::DocumentDiagnosticParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            identifier: None,
            previous_result_id: None,
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap();
    let types::DocumentDiagnosticReportResult::Report(types::DocumentDiagnosticReport::Full(pulled)) = pulled
    else {
        panic!("not a full report")
    };
    assert_eq!(codes(&pulled.full_document_diagnostic_report.items), ["interpolation-only"]);
    let first = client.diagnostics(&main, |_| true);
    assert_eq!(codes(&first), ["interpolation-only"]);
    // Then `check`'s, once the whole module is reported.
    let full = client.diagnostics(&main, |it| it.len() > 1);
    assert_eq!(codes(&full), ["unused-declaration", "interpolation-only", "undeclared-reference"]);
    client.shutdown();
}

#[test]
fn an_open_document_keeps_its_own_diagnostics_until_the_last_part_of_the_first_report() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("many");
    // A module per directory, reported a few at a time (the tests'
    // `files_per_report_part`), the open document's last.
    for at in 0..300 {
        let module = root.join(format!("d{at:03}"));
        std::fs::create_dir_all(&module).unwrap();
        std::fs::write(module.join("main.tf"), format!("output \"o\" {{\n  value = {at}\n}}\n")).unwrap();
    }
    let main = root.join("z/main.tf");
    std::fs::create_dir_all(main.parent().unwrap()).unwrap();
    let text = "locals {\n  a = \"${local.b}\"\n}\n";
    std::fs::write(&main, text).unwrap();
    let mut client = Client::start(&[&root]);
    client.open(&main, text);
    // Every publication until `check`'s holds the document's own: the
    // parts before its module's have nothing to say of it.
    let full = client.diagnostics(&main, |it| {
        assert!(codes(it).contains(&"interpolation-only".to_string()), "{:?}", codes(it));
        it.len() > 1
    });
    assert_eq!(codes(&full), ["unused-declaration", "interpolation-only", "undeclared-reference"]);
    client.shutdown();
}

#[test]
fn folding_and_selection_ranges() {
    let (_dir, root) = workspace();
    let path = root.join("folds.tf");
    let text = "/* a comment\n   of two lines */\n# one\n# two\nlocals {\n  list = [\n    1,\n  ]\n  obj = { a = 1 }\n  doc = <<EOT\nx\nEOT\n  call = max(\n    1,\n    2)\n}\n";
    std::fs::write(&path, text).unwrap();
    let mut client = Client::start(&[&root]);
    client.open(&path, text);
    let folds = client
        .request::<types::request::FoldingRangeRequest>(types::FoldingRangeParams {
            text_document: TextDocumentIdentifier { uri: uri(&path) },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let folds: Vec<(u32, u32, bool)> = folds
        .iter()
        .map(|it| (it.start_line, it.end_line, it.kind == Some(types::FoldingRangeKind::Comment)))
        .collect();
    // The comments; the block and the tuple up to the line of their
    // closing bracket; the heredoc up to its marker; the call's arguments
    // whole (they close on a line of their own text). The one-line object
    // does not fold.
    assert_eq!(
        folds,
        [(0, 1, true), (2, 3, true), (4, 14, false), (5, 6, false), (9, 10, false), (12, 14, false)]
    );

    // `1` of the list: the number, the tuple, the attribute, the body, the
    // block, and so on out to the file.
    let ranges = client
        .request::<types::request::SelectionRangeRequest>(types::SelectionRangeParams {
            text_document: TextDocumentIdentifier { uri: uri(&path) },
            positions: vec![Position::new(6, 4)],
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let mut chain = Vec::new();
    let mut next = ranges.first();
    while let Some(range) = next {
        chain.push(range.range);
        next = range.parent.as_deref();
    }
    assert_eq!(chain[0], Range::new(Position::new(6, 4), Position::new(6, 5)));
    assert!(chain.contains(&Range::new(Position::new(5, 9), Position::new(7, 3))), "{chain:?}");
    assert!(chain.contains(&Range::new(Position::new(4, 0), Position::new(15, 1))), "{chain:?}");
    // Each step contains the one before and is larger.
    for pair in chain.windows(2) {
        assert!(
            pair[1].start <= pair[0].start && pair[0].end <= pair[1].end && pair[0] != pair[1],
            "{chain:?}"
        );
    }
    client.shutdown();
}

#[test]
fn workspace_symbols_match_a_substring() {
    let (_dir, root) = workspace();
    let mut client = Client::start(&[&root]);
    client.diagnostics(&root.join("main.tf"), |it| !it.is_empty());
    let mut query = |query: &str| {
        let found = client
            .request::<types::request::WorkspaceSymbolRequest>(types::WorkspaceSymbolParams {
                query: query.to_string(),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            })
            .unwrap()
            .unwrap();
        let types::WorkspaceSymbolResponse::Flat(found) = found else { panic!("nested symbols") };
        let mut found: Vec<(String, String, u32)> = found
            .into_iter()
            .map(|it| {
                let path = lsp::uri_to_path(&it.location.uri).unwrap();
                (it.name, path.strip_prefix(&root).unwrap().to_string(), it.location.range.start.line)
            })
            .collect();
        found.sort();
        found
    };
    // Across both modules, ignoring case.
    let found = query("NAME");
    assert_eq!(
        found,
        [
            ("local.name".to_string(), "main.tf".to_string(), 1),
            ("local.quoted_name".to_string(), "main.tf".to_string(), 5),
            ("var.name".to_string(), "modules/network/main.tf".to_string(), 5),
        ]
    );
    assert!(query("no-such-symbol").is_empty());
    client.shutdown();

    // Resources by their address as references write it.
    let (_dir, root) = copy_of("features");
    let mut client = Client::start(&[&root]);
    wait_loaded(&mut client, &root.join("main.tf"));
    let found = client
        .request::<types::request::WorkspaceSymbolRequest>(types::WorkspaceSymbolParams {
            query: "logs".to_string(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let types::WorkspaceSymbolResponse::Flat(found) = found else { panic!("nested symbols") };
    let mut names: Vec<String> = found.into_iter().map(|it| it.name).collect();
    names.sort();
    assert_eq!(names, ["aws_s3_bucket.logs", "aws_s3_bucket_policy.logs"]);
    client.shutdown();
}

/// Waits until the server has read the workspace: requests wait for that.
fn wait_loaded(client: &mut Client, path: &Utf8Path) {
    let params = types::DocumentSymbolParams {
        text_document: TextDocumentIdentifier { uri: uri(path) },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    client.request::<types::request::DocumentSymbolRequest>(params).unwrap();
}

fn code_actions(
    client: &mut Client,
    path: &Utf8Path,
    range: Range,
    only: Option<Vec<types::CodeActionKind>>,
) -> Vec<types::CodeAction> {
    let params = types::CodeActionParams {
        text_document: TextDocumentIdentifier { uri: uri(path) },
        range,
        context: types::CodeActionContext { diagnostics: Vec::new(), only, trigger_kind: None },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    let actions = client.request::<types::request::CodeActionRequest>(params).unwrap().unwrap_or_default();
    actions
        .into_iter()
        .map(|it| match it {
            types::CodeActionOrCommand::CodeAction(action) => action,
            other => panic!("a command: {other:?}"),
        })
        .collect()
}

/// The text of `path` after the edits of `edit` to it.
fn edited(edit: &types::WorkspaceEdit, path: &Utf8Path, text: &str) -> String {
    let edits = edit.changes.as_ref().unwrap().get(&uri(path)).unwrap();
    apply_edits(text, edits)
}

#[test]
fn code_actions_fix_and_ignore() {
    let (_dir, root) = workspace();
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let found = client.diagnostics(&main, |it| codes(it).contains(&"legacy-index".to_string()));
    let text = std::fs::read_to_string(&main).unwrap();
    // On `var.zones.0`: its fix (safe, so preferred) and its ignore comment.
    let at = Range::new(Position::new(3, 26), Position::new(3, 26));
    let actions = code_actions(&mut client, &main, at, None);
    assert_eq!(actions.len(), 2, "{actions:?}");
    let (fix, ignore) = (&actions[0], &actions[1]);
    assert_eq!(fix.kind, Some(types::CodeActionKind::QUICKFIX));
    assert_eq!(fix.is_preferred, Some(true));
    assert_eq!(fix.diagnostics.as_ref().unwrap()[0], found[1]);
    let fixed = edited(fix.edit.as_ref().unwrap(), &main, &text);
    assert!(fixed.contains("  first_zone  = var.zones[0]\n"), "{fixed}");
    assert_eq!(ignore.title, "ignore `legacy-index` on this line");
    assert_eq!(ignore.is_preferred, None);
    let ignored = edited(ignore.edit.as_ref().unwrap(), &main, &text);
    assert!(ignored.contains("  # halite-ignore: legacy-index\n  first_zone  = var.zones.0\n"), "{ignored}");
    // Applied, the ignore comment silences the diagnostic.
    client.open(&main, &text);
    client.change(&main, None, &ignored);
    client.diagnostics(&main, |it| codes(it) == ["unused-declaration", "unused-declaration"]);
    // Asked right after an edit, they wait for its report: their edits fit
    // the new text, not the one last reported.
    let shifted = format!("# moved down a line\n{text}");
    client.change(&main, None, &shifted);
    let at = Range::new(Position::new(4, 26), Position::new(4, 26));
    let actions = code_actions(&mut client, &main, at, None);
    assert_eq!(actions.len(), 2, "{actions:?}");
    let fixed = edited(actions[0].edit.as_ref().unwrap(), &main, &shifted);
    assert!(fixed.contains("  first_zone  = var.zones[0]\n"), "{fixed}");
    // Nothing there, or not a kind asked for: no actions.
    assert!(
        code_actions(&mut client, &main, Range::new(Position::new(9, 0), Position::new(9, 1)), None)
            .is_empty()
    );
    let refactors = Some(vec![types::CodeActionKind::REFACTOR]);
    let at = Range::new(Position::new(2, 0), Position::new(2, 10));
    assert!(code_actions(&mut client, &main, at, refactors).is_empty());
    client.shutdown();
}

#[test]
fn signature_help_of_a_call() {
    let (_dir, root) = copy_of("features");
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let help = |client: &mut Client, line, character| {
        client
            .request::<types::request::SignatureHelpRequest>(types::SignatureHelpParams {
                context: None,
                text_document_position_params: at(&main, line, character),
                work_done_progress_params: Default::default(),
            })
            .unwrap()
    };
    // `cidrsubnet("10.0.0.0/16", 8, 1)`: Terraform's function, by the dialect.
    let found = help(&mut client, 27, 40).expect("a signature");
    let signature = &found.signatures[0];
    assert_eq!(signature.label, "cidrsubnet(prefix string, newbits number, netnum number)");
    assert_eq!(found.active_parameter, Some(2));
    let labels: Vec<types::ParameterLabel> =
        signature.parameters.as_ref().unwrap().iter().map(|it| it.label.clone()).collect();
    assert_eq!(labels[0], types::ParameterLabel::LabelOffsets([11, 24]));
    assert_eq!(help(&mut client, 27, 22).unwrap().active_parameter, Some(0));
    assert_eq!(help(&mut client, 27, 36).unwrap().active_parameter, Some(1));
    // Outside any call's parentheses.
    assert_eq!(help(&mut client, 27, 15), None);
    assert_eq!(help(&mut client, 27, 4), None);
    client.shutdown();

    // By the file's dialect: Terragrunt's own function in a Terragrunt
    // file, none of that name in a Terraform file.
    let unit = root.parent().unwrap().join("unit");
    std::fs::create_dir_all(&unit).unwrap();
    let terragrunt = unit.join("terragrunt.hcl");
    std::fs::write(&terragrunt, "locals {\n  common = read_terragrunt_config(\"common.hcl\")\n}\n").unwrap();
    std::fs::write(root.join("other.tf"), "locals {\n  common = read_terragrunt_config(\"common.hcl\")\n}\n")
        .unwrap();
    let mut client = Client::start(&[&root, &unit]);
    let help = |client: &mut Client, path: &Utf8Path| {
        client
            .request::<types::request::SignatureHelpRequest>(types::SignatureHelpParams {
                context: None,
                text_document_position_params: at(path, 1, 35),
                work_done_progress_params: Default::default(),
            })
            .unwrap()
    };
    let found = help(&mut client, &terragrunt).expect("Terragrunt's signature");
    assert!(found.signatures[0].label.starts_with("read_terragrunt_config(config_path string"), "{found:?}");
    assert_eq!(help(&mut client, &root.join("other.tf")), None);
    client.shutdown();
}

#[test]
fn inlay_hints_show_short_known_values() {
    let (_dir, root) = copy_of("features");
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let hints = client
        .request::<types::request::InlayHintRequest>(types::InlayHintParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            range: Range::new(Position::new(0, 0), Position::new(40, 0)),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let shown: Vec<(u32, u32, String)> = hints
        .iter()
        .map(|it| {
            let types::InlayHintLabel::String(label) = &it.label else { panic!("label parts") };
            (it.position.line, it.position.character, label.clone())
        })
        .collect();
    // `zone_count` and the resource's `count`; not the literals (the value
    // is what is written), the long list, or what a variable makes unknown.
    assert_eq!(shown, [(2, 34, "= 3".to_string()), (15, 27, "= 3".to_string())]);
    // A range holds those inside it only.
    let hints = client
        .request::<types::request::InlayHintRequest>(types::InlayHintParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            range: Range::new(Position::new(10, 0), Position::new(20, 0)),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    assert_eq!(hints.len(), 1);
    client.shutdown();
}

/// Decoded semantic tokens: line, column, length, type, whether a declaration.
fn decode_tokens(
    tokens: &[types::SemanticToken],
    legend: &types::SemanticTokensLegend,
) -> Vec<(u32, u32, u32, String, bool)> {
    let (mut line, mut column) = (0, 0);
    tokens
        .iter()
        .map(|token| {
            line += token.delta_line;
            column = if token.delta_line == 0 { column + token.delta_start } else { token.delta_start };
            let kind = legend.token_types[token.token_type as usize].as_str().to_string();
            (line, column, token.length, kind, token.token_modifiers_bitset == 1)
        })
        .collect()
}

#[test]
fn semantic_tokens_full_and_range() {
    let (_dir, root) = copy_of("features");
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let Some(types::SemanticTokensServerCapabilities::SemanticTokensOptions(options)) =
        client.capabilities.semantic_tokens_provider.clone()
    else {
        panic!("no semantic tokens")
    };
    assert_eq!(options.range, Some(true));
    let legend = options.legend;
    let full = client
        .request::<types::request::SemanticTokensFullRequest>(types::SemanticTokensParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let types::SemanticTokensResult::Tokens(full) = full else { panic!("partial tokens") };
    let tokens = decode_tokens(&full.data, &legend);
    let on_line = |line: u32| -> Vec<(u32, u32, String, bool)> {
        tokens.iter().filter(|it| it.0 == line).map(|it| (it.1, it.2, it.3.clone(), it.4)).collect()
    };
    let t = |column: u32, length: u32, kind: &str, declaration: bool| {
        (column, length, kind.to_string(), declaration)
    };
    // `locals {`
    assert_eq!(on_line(0), [t(0, 6, "type", false)]);
    // `  zone_count = length(local.zones)`
    assert_eq!(
        on_line(2),
        [
            t(2, 10, "variable", true),
            t(15, 6, "function", false),
            t(22, 5, "keyword", false),
            t(28, 5, "variable", false)
        ]
    );
    // `  long       = [for i in range(30) : "zone-${i}"]`
    assert_eq!(
        on_line(4),
        [
            t(2, 4, "variable", true),
            t(16, 3, "keyword", false),
            t(20, 1, "parameter", true),
            t(22, 2, "keyword", false),
            t(25, 5, "function", false),
            t(31, 2, "number", false),
            t(37, 1, "string", false),
            t(38, 5, "string", false),
            t(43, 2, "operator", false),
            t(45, 1, "parameter", false),
            t(46, 1, "operator", false),
            t(47, 1, "string", false),
        ]
    );
    // `resource "aws_s3_bucket" "logs" {`
    assert_eq!(
        on_line(14),
        [
            t(0, 8, "type", false),
            t(9, 1, "class", true),
            t(10, 13, "class", true),
            t(23, 1, "class", true),
            t(25, 1, "class", true),
            t(26, 4, "class", true),
            t(30, 1, "class", true),
        ]
    );
    // `    resources = [aws_s3_bucket.logs[0].arn]`: a resource type's root.
    assert_eq!(on_line(21)[1], t(17, 13, "type", false));
    // A range: only the tokens of its lines.
    let ranged = client
        .request::<types::request::SemanticTokensRangeRequest>(types::SemanticTokensRangeParams {
            text_document: TextDocumentIdentifier { uri: uri(&main) },
            range: Range::new(Position::new(2, 0), Position::new(3, 0)),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let types::SemanticTokensRangeResult::Tokens(ranged) = ranged else { panic!("partial tokens") };
    let ranged = decode_tokens(&ranged.data, &legend);
    let lines: Vec<u32> = ranged.iter().map(|it| it.0).collect();
    assert!(lines.iter().all(|line| (2..=3).contains(line)) && lines.contains(&2), "{ranged:?}");
    assert_eq!(ranged.iter().filter(|it| it.0 == 2).count(), on_line(2).len());
    // Columns and lengths count UTF-16 units.
    let unicode = root.join("unicode.tf");
    client.open(&unicode, "locals {\n  a = \"é𝄞${local.b}\"\n  b = 1\n}\n");
    let full = client
        .request::<types::request::SemanticTokensFullRequest>(types::SemanticTokensParams {
            text_document: TextDocumentIdentifier { uri: uri(&unicode) },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let types::SemanticTokensResult::Tokens(full) = full else { panic!("partial tokens") };
    let line: Vec<(u32, u32, String)> = decode_tokens(&full.data, &legend)
        .into_iter()
        .filter(|it| it.0 == 1)
        .map(|it| (it.1, it.2, it.3))
        .collect();
    let t = |column: u32, length: u32, kind: &str| (column, length, kind.to_string());
    assert_eq!(
        line,
        [
            t(2, 1, "variable"),
            t(6, 1, "string"),
            t(7, 3, "string"),
            t(10, 2, "operator"),
            t(12, 5, "keyword"),
            t(18, 1, "variable"),
            t(19, 1, "operator"),
            t(20, 1, "string"),
        ]
    );
    client.shutdown();
}

#[test]
fn completion_of_blocks_arguments_and_repetition_roots() {
    let (_dir, root) = copy_of("features");
    let main = root.join("main.tf");
    let mut client = Client::start(&[&root]);
    let text = std::fs::read_to_string(&main).unwrap();
    client.open(&main, &text);
    let complete =
        |client: &mut Client, edited: &str, line: u32, character: u32| -> Vec<(String, Option<String>)> {
            client.change(&main, None, edited);
            let list = completion_list(client, &main, line, character);
            list.items.into_iter().map(|it| (it.label, it.detail)).collect()
        };
    let labels =
        |items: Vec<(String, Option<String>)>| -> Vec<String> { items.into_iter().map(|it| it.0).collect() };
    // A block type at the top level, with its labels.
    let edited = text.replace("output \"bucket\"", "reso\n\noutput \"bucket\"");
    let items = complete(&mut client, &edited, 30, 4);
    assert_eq!(items, [("resource".to_string(), Some("resource \"type\" \"name\"".to_string()))]);
    // In a resource: its meta-arguments and blocks.
    let edited = text.replace("  bucket = \"${local.prefix}", "  co\n  bucket = \"${local.prefix}");
    assert_eq!(labels(complete(&mut client, &edited, 16, 4)), ["count", "connection"]);
    let edited = text.replace("  bucket = \"${local.prefix}", "  l\n  bucket = \"${local.prefix}");
    assert_eq!(labels(complete(&mut client, &edited, 16, 3)), ["lifecycle"]);
    // In an output: `value` is required.
    let edited =
        text.replace("  value = aws_s3_bucket.logs[0].id", "  v\n  value = aws_s3_bucket.logs[0].id");
    let items = complete(&mut client, &edited, 32, 3);
    assert_eq!(items, [("value".to_string(), Some("required".to_string()))]);
    // `count` where the block has a `count` argument, not elsewhere.
    let edited = text.replace("  bucket = \"${local.prefix}-${count.index}\"", "  bucket = co");
    let names = labels(complete(&mut client, &edited, 16, 13));
    assert!(names.contains(&"count".to_string()) && names.contains(&"coalesce".to_string()), "{names:?}");
    let edited = text.replace("  name   = cidrsubnet(\"10.0.0.0/16\", 8, 1)", "  name   = co");
    let names = labels(complete(&mut client, &edited, 27, 13));
    assert!(!names.contains(&"count".to_string()) && names.contains(&"coalesce".to_string()), "{names:?}");
    client.shutdown();
}

#[test]
fn rename_resources_outputs_and_module_calls() {
    let (_dir, root) = copy_of("features");
    let main = root.join("main.tf");
    let other = root.join("other.tf");
    let child = root.join("store/main.tf");
    let mut client = Client::start(&[&root]);
    wait_loaded(&mut client, &main);
    let rename = |client: &mut Client, path: &Utf8Path, line, character, new_name: &str| {
        client.request::<types::request::Rename>(types::RenameParams {
            text_document_position: at(path, line, character),
            new_name: new_name.to_string(),
            work_done_progress_params: Default::default(),
        })
    };
    let changed = |edit: types::WorkspaceEdit| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = edit
            .changes
            .unwrap()
            .into_iter()
            .map(|(uri, edits)| {
                let path = lsp::uri_to_path(&uri).unwrap();
                let text = std::fs::read_to_string(&path).unwrap();
                (path.strip_prefix(&root).unwrap().to_string(), apply_edits(&text, &edits))
            })
            .collect();
        out.sort();
        out
    };

    // A resource, from a reference in another file.
    let prepared = client.request::<types::request::PrepareRenameRequest>(at(&other, 5, 27)).unwrap();
    assert_eq!(
        prepared,
        Some(types::PrepareRenameResponse::RangeWithPlaceholder {
            range: Range::new(Position::new(5, 25), Position::new(5, 29)),
            placeholder: "logs".to_string()
        })
    );
    let files = changed(rename(&mut client, &other, 5, 27, "archive").unwrap().unwrap());
    assert_eq!(files.iter().map(|it| it.0.as_str()).collect::<Vec<_>>(), ["main.tf", "other.tf"]);
    assert!(files[0].1.contains("resource \"aws_s3_bucket\" \"archive\" {"));
    assert_eq!(files[0].1.matches("aws_s3_bucket.archive[0]").count(), 2);
    assert!(files[1].1.contains("bucket = aws_s3_bucket.archive[0].id"));
    // The other resource of the same name is left alone.
    assert!(files[1].1.contains("resource \"aws_s3_bucket_policy\" \"logs\""));

    // A data source, from its declaration.
    let files = changed(rename(&mut client, &main, 19, 34, "reader").unwrap().unwrap());
    assert!(files[0].1.contains("data \"aws_iam_policy_document\" \"reader\" {"));
    assert!(files[1].1.contains("policy = data.aws_iam_policy_document.reader.json"));

    // A module call: its references, outputs read through it included.
    let files = changed(rename(&mut client, &other, 1, 18, "vault").unwrap().unwrap());
    assert_eq!(files.iter().map(|it| it.0.as_str()).collect::<Vec<_>>(), ["main.tf", "other.tf"]);
    assert!(files[0].1.contains("module \"vault\" {"));
    assert!(files[1].1.contains("value = module.vault.id"));

    // An output of a child module: its callers' references too.
    let files = changed(rename(&mut client, &child, 4, 9, "ident").unwrap().unwrap());
    assert_eq!(files.iter().map(|it| it.0.as_str()).collect::<Vec<_>>(), ["other.tf", "store/main.tf"]);
    assert!(files[0].1.contains("value = module.store.ident"));
    assert!(files[1].1.contains("output \"ident\" {"));

    // Refused, with the reason.
    let error = rename(&mut client, &main, 14, 28, "2nd").unwrap_err();
    assert_eq!(error.message, "`2nd` is not an identifier");
    let error = client.request::<types::request::PrepareRenameRequest>(at(&main, 16, 32)).unwrap_err();
    assert_eq!(error.message, "nothing that can be renamed is here");
    let whole = root.join("whole.tf");
    client.open(&whole, "output \"all\" {\n  value = module.store\n}\n");
    let error = rename(&mut client, &child, 4, 9, "ident").unwrap_err();
    assert_eq!(
        error.message,
        format!("`module.store` is used whole at {whole}:2: the names read through it cannot be renamed")
    );
    client.shutdown();
}

#[test]
fn a_cancelled_request_stops_early() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("big");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("variables.tf"), "variable \"x\" {\n  type = string\n}\n").unwrap();
    const FILES: usize = 1500;
    for at in 0..FILES {
        std::fs::write(
            root.join(format!("f{at}.tf")),
            format!("locals {{\n  l{at} = \"${{var.x}}-{at}\"\n}}\n"),
        )
        .unwrap();
    }
    let variables = root.join("variables.tf");
    let mut client = Client::start(&[&root]);
    wait_loaded(&mut client, &variables);
    let params = serde_json::to_value(types::ReferenceParams {
        text_document_position: at(&variables, 0, 11),
        context: types::ReferenceContext { include_declaration: false },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    })
    .unwrap();
    // Answered in full, the request visits every file.
    let all = client.raw("textDocument/references", params.clone()).unwrap();
    assert_eq!(all.as_array().unwrap().len(), FILES);
    assert_eq!(client.raw("halite/stats", Json::Null).unwrap(), json!({ "stopped_early": 0 }));
    // Cancelled at once, its worker stops before it has visited them all.
    let waiting = client.send_request("textDocument/references", params);
    let id = client.next_id;
    client
        .notify::<types::notification::Cancel>(types::CancelParams { id: types::NumberOrString::Number(id) });
    let error = client.response(&waiting).unwrap_err();
    assert_eq!(error.code, lsp_server::ErrorCode::RequestCanceled as i32);
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let stats = client.raw("halite/stats", Json::Null).unwrap();
        if stats == json!({ "stopped_early": 1 }) {
            break;
        }
        assert!(Instant::now() < deadline, "the cancelled request ran to its end: {stats}");
        std::thread::sleep(Duration::from_millis(10));
    }
    client.shutdown();
}

/// A language an application declares in `halite.toml` (a `[[dialect]]`
/// table naming its schema file) is checked in the editor as `halite
/// check` checks it: the same findings as `check`'s fixture
/// (`test-data/check/cli/embedder-language.txt`).
#[test]
fn a_language_declared_in_halite_toml_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("language");
    let fixture =
        Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/check/cli/embedder-language");
    copy_dir(fixture.as_std_path(), root.as_std_path());
    let build = root.join("build.hcl");
    let mut client = Client::start(&[&root]);
    let found = client.diagnostics(&build, |it| codes(it).contains(&"unsupported-argument".to_string()));
    let codes = codes(&found);
    for code in ["missing-argument", "type-mismatch", "unsupported-argument"] {
        assert!(codes.contains(&code.to_string()), "{code} missing from {codes:?}");
    }
    let misspelt = found.iter().find(|it| it.message.contains("outptu")).expect("the misspelt argument");
    assert!(misspelt.message.contains("Did you mean \"output\"?"), "{}", misspelt.message);
    client.shutdown();
}

/// An edit of a file units include (`root.hcl`) republishes the units that
/// include it: the error its edit brings into a unit, and its going away.
#[test]
fn an_edit_of_an_included_file_republishes_its_units() {
    let dir = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(dir.path().canonicalize().unwrap()).unwrap().join("live");
    let unit = root.join("app");
    std::fs::create_dir_all(&unit).unwrap();
    let included = root.join("root.hcl");
    let declares = "dependency \"vpc\" {\n  mock_outputs = { id = \"x\" }\n}\n";
    std::fs::write(&included, declares).unwrap();
    let terragrunt = unit.join("terragrunt.hcl");
    std::fs::write(
        &terragrunt,
        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\nlocals {\n  id = dependency.vpc.outputs.id\n}\n",
    )
    .unwrap();
    let mut client = Client::start(&[&root]);
    wait_loaded(&mut client, &terragrunt);
    client.open(&included, declares);
    client.change(&included, None, "# Nothing.\n");
    let found = client.diagnostics(&terragrunt, |it| !it.is_empty());
    assert_eq!(summary(&found), ["error undeclared-reference 5:8"]);
    client.change(&included, None, declares);
    client.diagnostics(&terragrunt, |it| it.is_empty());
    client.shutdown();
}
