//! The server's main loop: the one thread that owns the host, applies the
//! editor's changes to it, and hands requests to threads of their own,
//! each with a snapshot of the database.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    panic::AssertUnwindSafe,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use camino::{Utf8Path, Utf8PathBuf};
use crossbeam_channel::{Receiver, Sender, select};
use db::{File, FileStatus, RootDatabase, salsa::Database as _};
use host::{
    AnalysisHost, Change, Contents, HostOptions, LocatedDiagnostic, Membership, ReportDraft, ReportJob,
    Severity, Unfinished, Values, config::RuleLevelsFinder,
};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError};
use lsp_types::{self as lsp, Uri};
use serde_json::Value as Json;

use crate::{
    Options,
    convert::{LineIndex, path_to_uri, uri_to_path},
    ide::{self, CompletionKind, Snapshot, SymbolKind},
};

/// What the main loop hears from its own threads.
enum Internal {
    Reported(Result<ReportDraft, Unfinished>),
    Answered {
        id: RequestId,
        result: Result<Json, ResponseError>,
    },
    /// A workspace folder's files, read on a thread of their own so that
    /// the documents opened meanwhile are answered at once.
    Loaded {
        root: Utf8PathBuf,
        files: Result<Vec<vfs::LoadedFile>, String>,
    },
}

pub(crate) struct Server {
    sender: Sender<Message>,
    options: Options,
    host: AnalysisHost,
    levels: RuleLevelsFinder,
    /// The documents the editor holds open, with their text as it has it.
    open: HashMap<Utf8PathBuf, String>,
    internal: (Sender<Internal>, Receiver<Internal>),
    reporter: Sender<ReportJob>,
    report_running: bool,
    /// When the next report starts, if one is due: a short while after the
    /// last edit, so that a burst of keystrokes is one report.
    report_due: Option<Instant>,
    /// Requests running on their threads, each with its cancellation flag.
    running: HashMap<RequestId, Arc<AtomicBool>>,
    /// `textDocument/diagnostic` requests waiting for the next report.
    pulls: Vec<(RequestId, Utf8PathBuf)>,
    /// `textDocument/codeAction` requests waiting for the next report.
    actions_waiting: Vec<(RequestId, lsp::CodeActionParams)>,
    /// Files whose published diagnostics are not empty.
    published: BTreeSet<Utf8PathBuf>,
    /// The workspace folders being read; no report starts until they are
    /// in (it would judge a module by part of its files).
    loading: Vec<Utf8PathBuf>,
    /// Whether no report has covered the whole workspace yet: until one
    /// has, the open documents' own diagnostics (syntax and lints, which
    /// need only their parse) are shown at once, pushed and pulled, and
    /// the report's (`check`'s) replace them when it is in.
    first_report_due: bool,
    /// Open documents shown their own diagnostics only, to be shown the
    /// report's once it is in.
    shown_own: BTreeSet<Utf8PathBuf>,
    /// Whether the client asks again for pulled diagnostics when told to
    /// (`workspace/diagnostic/refresh`), and whether it is owed that: a
    /// pull was answered with a document's own diagnostics only.
    refresh_support: bool,
    refresh_owed: bool,
    /// Requests that arrived while folders were being read, answered once
    /// they are in (taking the files in would cancel them).
    deferred: Vec<Request>,
    /// How many requests stopped early because the client cancelled them
    /// (`halite/stats`, for the tests).
    stopped_early: Arc<AtomicUsize>,
    /// The host's modules by directory, as every request's snapshot reads
    /// them: made again only after the host takes a change. Made for each
    /// request, the thousands of a large workspace's paths, sorted, were
    /// most of a hover's time.
    modules: Option<Arc<BTreeMap<Utf8PathBuf, db::module::Module>>>,
}

const CONTENT_MODIFIED: i32 = ErrorCode::ContentModified as i32;
const REQUEST_CANCELLED: i32 = ErrorCode::RequestCanceled as i32;

/// Runs the server on a connection whose `initialize` handshake is done.
pub(crate) fn main_loop(
    connection: &Connection,
    options: Options,
    params: &lsp::InitializeParams,
) -> Result<(), String> {
    let roots = workspace_roots(params);
    let internal = crossbeam_channel::unbounded();
    let reporter = start_reporter(internal.0.clone())?;
    let current = roots.first().cloned().unwrap_or_else(|| Utf8PathBuf::from("/"));
    // The languages the workspace's configurations declare (the
    // `[[dialect]]` tables of the `halite.toml` of each folder, or above
    // it) are checked as `check` checks them: the database is made with
    // their registry, their schemas as read now.
    let mut levels = RuleLevelsFinder::new(current);
    let mut config_errors = Vec::new();
    for root in &roots {
        // A file of the folder stands for the folder: the finder reads the
        // configuration of a file's directory and those above it.
        if let Err(error) = levels.levels_for(&root.join("halite.toml")) {
            config_errors.push(error.to_string());
        }
    }
    // Nothing reads the query log (salsa builds an event per query while
    // one can be kept).
    let host_options = HostOptions { values: Values::None, query_log: false, ..HostOptions::default() };
    let host = match levels.registry() {
        Ok(registry) => AnalysisHost::with_dialects(host_options, registry),
        Err(error) => {
            config_errors.push(error.to_string());
            AnalysisHost::new(host_options)
        }
    };
    let mut server = Server {
        sender: connection.sender.clone(),
        options,
        // Values are evaluated when a hover asks for them, not by every
        // report: the reports carry diagnostics only, as `check`'s do.
        host,
        levels,
        open: HashMap::new(),
        internal,
        reporter,
        report_running: false,
        report_due: None,
        running: HashMap::new(),
        pulls: Vec::new(),
        actions_waiting: Vec::new(),
        modules: None,
        published: BTreeSet::new(),
        loading: Vec::new(),
        first_report_due: true,
        shown_own: BTreeSet::new(),
        refresh_support: diagnostic_refresh_supported(params),
        refresh_owed: false,
        deferred: Vec::new(),
        stopped_early: Arc::new(AtomicUsize::new(0)),
    };
    for error in config_errors {
        server.log(lsp::MessageType::ERROR, format!("halite.toml: {error}"));
    }
    if watched_files_registrable(params) {
        server.register_file_watcher();
    }
    for root in roots {
        server.start_loading(root);
    }
    server.schedule_report(Duration::ZERO);
    server.run(connection)
}

fn workspace_roots(params: &lsp::InitializeParams) -> Vec<Utf8PathBuf> {
    let mut roots: Vec<Utf8PathBuf> =
        params.workspace_folders.iter().flatten().filter_map(|folder| uri_to_path(&folder.uri)).collect();
    #[allow(deprecated)]
    if roots.is_empty()
        && let Some(root) = params.root_uri.as_ref().and_then(uri_to_path)
    {
        roots.push(root);
    }
    roots
}

fn watched_files_registrable(params: &lsp::InitializeParams) -> bool {
    params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|it| it.did_change_watched_files.as_ref())
        .and_then(|it| it.dynamic_registration)
        .unwrap_or(false)
}

fn diagnostic_refresh_supported(params: &lsp::InitializeParams) -> bool {
    params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|it| it.diagnostic.as_ref())
        .and_then(|it| it.refresh_support)
        .unwrap_or(false)
}

fn start_reporter(internal: Sender<Internal>) -> Result<Sender<ReportJob>, String> {
    let (jobs, received) = crossbeam_channel::unbounded::<ReportJob>();
    std::thread::Builder::new()
        .name("report".to_string())
        .stack_size(host::DEEP_STACK)
        .spawn(move || {
            for job in received {
                let outcome = job.run();
                if internal.send(Internal::Reported(outcome)).is_err() {
                    break;
                }
            }
        })
        .map_err(|error| format!("cannot start the report thread: {error}"))?;
    Ok(jobs)
}

impl Server {
    fn run(&mut self, connection: &Connection) -> Result<(), String> {
        loop {
            let waiting = self.report_running || !self.loading.is_empty();
            let wait = match (self.report_due, waiting) {
                (Some(due), false) => due.saturating_duration_since(Instant::now()),
                _ => Duration::from_secs(3600),
            };
            select! {
                recv(connection.receiver) -> message => {
                    let Ok(message) = message else { return Ok(()) };
                    match message {
                        Message::Request(request) => {
                            if connection.handle_shutdown(&request).map_err(|error| error.to_string())? {
                                return Ok(());
                            }
                            self.on_request(request);
                        }
                        Message::Notification(notification) => {
                            if notification.method == "exit" {
                                return Ok(());
                            }
                            self.on_notification(notification);
                        }
                        // Answers to the server's own requests (the
                        // watcher's registration) need nothing.
                        Message::Response(_) => {}
                    }
                }
                recv(self.internal.1) -> message => {
                    if let Ok(message) = message {
                        self.on_internal(message);
                    }
                }
                default(wait) => {}
            }
            if !self.report_running
                && self.loading.is_empty()
                && self.report_due.is_some_and(|due| due <= Instant::now())
            {
                self.start_report();
            }
        }
    }

    fn send(&self, message: impl Into<Message>) {
        let _ = self.sender.send(message.into());
    }

    fn log(&self, kind: lsp::MessageType, message: String) {
        let params = lsp::LogMessageParams { typ: kind, message };
        self.send(Notification::new("window/logMessage".to_string(), params));
    }

    fn register_file_watcher(&self) {
        let options = lsp::DidChangeWatchedFilesRegistrationOptions {
            watchers: [
                "**/*.{tf,tofu,hcl,nomad,tfvars}",
                "**/*.{tf,tofu,hcl,nomad,tfvars}.json",
                "**/halite.toml",
            ]
            .into_iter()
            .map(|pattern| lsp::FileSystemWatcher {
                glob_pattern: lsp::GlobPattern::String(pattern.to_string()),
                kind: None,
            })
            .collect(),
        };
        let registration = lsp::Registration {
            id: "halite-watched-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        let params = lsp::RegistrationParams { registrations: vec![registration] };
        self.send(Request::new(
            RequestId::from("halite-register-watcher".to_string()),
            "client/registerCapability".to_string(),
            params,
        ));
    }

    /// Reads a workspace folder's modules (every directory below it) on a
    /// thread of its own; [`Self::loaded`] takes them in.
    fn start_loading(&mut self, root: Utf8PathBuf) {
        let max = self.host.limits().max_file_size;
        let internal = self.internal.0.clone();
        let reading = root.clone();
        let spawned = std::thread::Builder::new().name("load".to_string()).spawn(move || {
            let files = vfs::load_set(&reading, vfs::Scope::Tree, host::load::WATCHED_FILES, max)
                .map_err(|error| error.to_string());
            let _ = internal.send(Internal::Loaded { root: reading, files });
        });
        match spawned {
            Ok(_) => {
                self.loading.push(root);
                self.first_report_due = true;
            }
            Err(error) => self.log(lsp::MessageType::ERROR, format!("cannot read {root}: {error}")),
        }
    }

    /// A workspace folder read: its files go into the host, with their rule
    /// levels, and the local modules they call; the open documents keep
    /// the editor's text.
    fn loaded(&mut self, root: &Utf8Path, files: Result<Vec<vfs::LoadedFile>, String>) {
        if let Some(at) = self.loading.iter().position(|it| it == root) {
            self.loading.remove(at);
        }
        self.schedule_report(Duration::ZERO);
        self.take_in(root, files);
        if self.loading.is_empty() {
            for request in std::mem::take(&mut self.deferred) {
                self.on_request(request);
            }
        }
    }

    fn take_in(&mut self, root: &Utf8Path, loaded: Result<Vec<vfs::LoadedFile>, String>) {
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(error) => {
                self.log(lsp::MessageType::ERROR, format!("cannot read {root}: {error}"));
                return;
            }
        };
        let mut change = Change::new();
        for file in loaded {
            if self.open.contains_key(&file.path) {
                continue;
            }
            self.set_levels(&mut change, &file.path);
            change.set_file(file.path, Contents::Bytes(file.bytes), Membership::ByName);
        }
        // What the finder learnt of each directory served this load; kept,
        // it was over a megabyte for a workspace of thousands of
        // directories, for the few files that come later.
        self.levels.forget_directories();
        self.host.apply_change(change);
        self.modules = None;
        if let Err(error) = host::load::children(&mut self.host) {
            self.log(lsp::MessageType::WARNING, format!("cannot read a called module: {error}"));
        }
    }

    fn set_levels(&mut self, change: &mut Change, path: &Utf8Path) {
        match self.levels.levels_for(path) {
            Ok(levels) => change.set_rule_levels(path.to_owned(), levels),
            Err(error) => self.log(lsp::MessageType::ERROR, error.to_string()),
        }
    }

    fn schedule_report(&mut self, after: Duration) {
        self.report_due = Some(Instant::now() + after);
    }

    fn start_report(&mut self) {
        self.report_due = None;
        self.report_running = true;
        let job = self.host.prepare_report_part(self.options.files_per_report_part);
        if self.reporter.send(job).is_err() {
            self.report_running = false;
            self.log(lsp::MessageType::ERROR, "the report thread stopped".to_string());
        }
    }

    /// Applies a change; running requests and the running report are
    /// cancelled (salsa unwinds them at their next query), and a report is
    /// due after the debounce.
    fn apply(&mut self, change: Change) {
        if change.is_empty() {
            return;
        }
        self.host.apply_change(change);
        self.modules = None;
        // The files an edit made a unit read (an include added); an edit
        // of a file units read reports them again.
        self.host.load_reads();
        self.modules = None;
        self.schedule_report(self.options.debounce);
    }

    fn on_internal(&mut self, message: Internal) {
        match message {
            Internal::Answered { id, result } => {
                // A request cancelled by the client was answered already.
                if self.running.remove(&id).is_none() {
                    return;
                }
                self.send(Response { id, response_result: result });
            }
            Internal::Loaded { root, files } => self.loaded(&root, files),
            Internal::Reported(outcome) => {
                self.report_running = false;
                match outcome {
                    Ok(draft) => {
                        let report = self.host.commit_report(draft);
                        let mut paths: BTreeSet<Utf8PathBuf> =
                            report.diagnostics.iter().map(|it| it.diagnostic.path.clone()).collect();
                        // The next part of a report in parts starts at once,
                        // unless an edit made a report due already.
                        let more = self.host.report_pending();
                        if more && self.report_due.is_none() {
                            self.schedule_report(Duration::ZERO);
                        }
                        // Reports start only once every folder is read: this
                        // one's last part covered the whole workspace.
                        if !more && self.loading.is_empty() && self.first_report_due {
                            self.first_report_due = false;
                            paths.append(&mut self.shown_own);
                            if std::mem::take(&mut self.refresh_owed) && self.refresh_support {
                                self.send(Request::new(
                                    RequestId::from("halite-refresh-diagnostics".to_string()),
                                    "workspace/diagnostic/refresh".to_string(),
                                    Json::Null,
                                ));
                            }
                        }
                        for path in paths {
                            self.publish(&path);
                        }
                    }
                    Err(unfinished) => {
                        self.host.requeue(unfinished);
                        if self.report_due.is_none() {
                            self.schedule_report(Duration::ZERO);
                        }
                    }
                }
                if self.report_due.is_none() {
                    for (id, path) in std::mem::take(&mut self.pulls) {
                        let result = self.pulled(&path);
                        self.send(Response::new_ok(id, result));
                    }
                    for (id, params) in std::mem::take(&mut self.actions_waiting) {
                        self.send(Response::new_ok(id, self.code_actions(&params)));
                    }
                }
            }
        }
    }

    /// The diagnostics of a file as last reported, in the protocol's terms.
    fn lsp_diagnostics(&self, path: &Utf8Path) -> Vec<lsp::Diagnostic> {
        let Some(file) = self.host.file(path) else { return Vec::new() };
        let db = self.host.db();
        let text = file.text(db);
        let index = LineIndex::new(text);
        let uri = path_to_uri(path);
        self.host.file_diagnostics(file).iter().map(|it| to_lsp_diagnostic(it, &index, &uri)).collect()
    }

    fn publish(&mut self, path: &Utf8Path) {
        let diagnostics = self.lsp_diagnostics(path);
        self.publish_list(path, diagnostics);
    }

    /// An open document's own diagnostics (see `first_report_due`),
    /// published now.
    fn publish_own(&mut self, path: &Utf8Path) {
        let diagnostics = self.own_diagnostics(path);
        self.shown_own.insert(path.to_owned());
        self.publish_list(path, diagnostics);
    }

    fn own_diagnostics(&self, path: &Utf8Path) -> Vec<lsp::Diagnostic> {
        let Some(file) = self.host.file(path) else { return Vec::new() };
        let text = file.text(self.host.db());
        let index = LineIndex::new(text);
        let uri = path_to_uri(path);
        self.host.own_diagnostics(file).iter().map(|it| to_lsp_diagnostic(it, &index, &uri)).collect()
    }

    fn publish_list(&mut self, path: &Utf8Path, diagnostics: Vec<lsp::Diagnostic>) {
        if diagnostics.is_empty() && !self.published.remove(path) {
            return;
        }
        if !diagnostics.is_empty() {
            self.published.insert(path.to_owned());
        }
        let version = None;
        let params = lsp::PublishDiagnosticsParams { uri: path_to_uri(path), diagnostics, version };
        self.send(Notification::new("textDocument/publishDiagnostics".to_string(), params));
    }

    fn pulled(&self, path: &Utf8Path) -> lsp::DocumentDiagnosticReportResult {
        full_report(self.lsp_diagnostics(path))
    }

    /// The quick fixes of the diagnostics (as last reported) that touch a
    /// range: each of their fixes, a safe one preferred, and an ignore
    /// comment of a rule's code.
    // `WorkspaceEdit::changes` is keyed by `Uri` (see `rename`).
    #[allow(clippy::mutable_key_type)]
    fn code_actions(&self, params: &lsp::CodeActionParams) -> Vec<lsp::CodeActionOrCommand> {
        let wanted = |kind: &lsp::CodeActionKind| {
            params.context.only.as_ref().is_none_or(|only| {
                only.iter().any(|it| {
                    kind.as_str() == it.as_str() || kind.as_str().starts_with(&format!("{}.", it.as_str()))
                })
            })
        };
        if !wanted(&lsp::CodeActionKind::QUICKFIX) {
            return Vec::new();
        }
        let uri = &params.text_document.uri;
        let Some(path) = uri_to_path(uri) else { return Vec::new() };
        let Some(file) = self.host.file(&path) else { return Vec::new() };
        let text = file.text(self.host.db());
        let index = LineIndex::new(text);
        let Some(range) = index.text_range(params.range) else { return Vec::new() };
        let action = |title: String,
                      diagnostic: &lsp::Diagnostic,
                      suggestion: &analysis::Suggestion,
                      preferred: bool| {
            let edits = suggestion
                .edits
                .iter()
                .map(|edit| lsp::TextEdit::new(index.range(edit.range), edit.replacement.clone()))
                .collect();
            lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title,
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(lsp::WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..lsp::WorkspaceEdit::default()
                }),
                is_preferred: preferred.then_some(true),
                ..lsp::CodeAction::default()
            })
        };
        let mut fixes = Vec::new();
        let mut ignores = Vec::new();
        for located in self.host.file_diagnostics(file) {
            let diagnostic = &located.diagnostic;
            let touches = diagnostic.range.start() <= range.end() && range.start() <= diagnostic.range.end();
            if !touches {
                continue;
            }
            let shown = to_lsp_diagnostic(located, &index, uri);
            let safe = analysis::applicability(diagnostic.code) == analysis::Applicability::Safe;
            let only_one = diagnostic.suggestions.len() == 1;
            for suggestion in &diagnostic.suggestions {
                fixes.push(action(suggestion.message.clone(), &shown, suggestion, safe && only_one));
            }
            if let Some(suggestion) = analysis::ignore_suggestion(text, diagnostic) {
                ignores.push(action(suggestion.message.clone(), &shown, &suggestion, false));
            }
        }
        ignores.dedup_by(|a, b| match (a, b) {
            (lsp::CodeActionOrCommand::CodeAction(a), lsp::CodeActionOrCommand::CodeAction(b)) => {
                a.edit == b.edit
            }
            _ => false,
        });
        fixes.append(&mut ignores);
        fixes
    }

    fn on_notification(&mut self, notification: Notification) {
        let result = match notification.method.as_str() {
            "textDocument/didOpen" => parse(notification.params).map(|it| self.did_open(it)),
            "textDocument/didChange" => parse(notification.params).map(|it| self.did_change(it)),
            "textDocument/didClose" => parse(notification.params).map(|it| self.did_close(it)),
            "workspace/didChangeWatchedFiles" => {
                parse(notification.params).map(|it| self.did_change_watched(it))
            }
            "workspace/didChangeWorkspaceFolders" => {
                parse(notification.params).map(|it| self.did_change_folders(it))
            }
            "$/cancelRequest" => parse(notification.params).map(|it: lsp::CancelParams| {
                let id = match it.id {
                    lsp::NumberOrString::Number(number) => RequestId::from(number),
                    lsp::NumberOrString::String(text) => RequestId::from(text),
                };
                if let Some(flag) = self.running.remove(&id) {
                    flag.store(true, Ordering::Relaxed);
                    self.send(Response::new_err(id, REQUEST_CANCELLED, "cancelled".to_string()));
                }
            }),
            _ => Ok(()),
        };
        if let Err(error) = result {
            self.log(lsp::MessageType::ERROR, format!("{}: {}", notification.method, error.message));
        }
    }

    fn did_open(&mut self, params: lsp::DidOpenTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else { return };
        let text = params.text_document.text;
        if text.len() as u64 > self.host.limits().max_file_size {
            self.log(lsp::MessageType::WARNING, format!("{path} is too large to read"));
            return;
        }
        // A file of a directory the workspace does not cover brings its
        // module with it.
        let dir = vfs::module_dir(&path).to_owned();
        let being_read = self.loading.iter().any(|root| path.starts_with(root));
        if vfs::is_module_file(&path) && !being_read && self.host.module(&dir).is_none() && dir.is_dir() {
            self.load_module(&dir);
        }
        let mut change = Change::new();
        self.set_levels(&mut change, &path);
        change.set_file(path.clone(), Contents::Text(text.as_str().into()), Membership::ByName);
        self.open.insert(path.clone(), text);
        self.apply(change);
        if self.first_report_due {
            self.publish_own(&path);
        }
    }

    fn load_module(&mut self, dir: &Utf8Path) {
        let max = self.host.limits().max_file_size;
        match host::load::module(dir, &mut self.levels, max) {
            Ok((change, _)) => {
                self.host.apply_change(change);
                self.modules = None;
                if let Err(error) = host::load::children(&mut self.host) {
                    self.log(lsp::MessageType::WARNING, format!("cannot read a called module: {error}"));
                }
            }
            Err(error) => self.log(lsp::MessageType::ERROR, format!("cannot read {dir}: {error}")),
        }
    }

    fn did_change(&mut self, params: lsp::DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else { return };
        let Some(text) = self.open.get_mut(&path) else { return };
        for change in params.content_changes {
            match change.range {
                Some(range) => {
                    let index = LineIndex::new(text);
                    let start = index.offset_clamped(range.start);
                    let end = index.offset_clamped(range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
                None => *text = change.text,
            }
        }
        let mut change = Change::new();
        change.set_file(path.clone(), Contents::Text(text.as_str().into()), Membership::ByName);
        self.apply(change);
        if self.first_report_due {
            self.publish_own(&path);
        }
    }

    /// A closed document is what is on disk again.
    fn did_close(&mut self, params: lsp::DidCloseTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else { return };
        if self.open.remove(&path).is_none() {
            return;
        }
        let mut change = Change::new();
        self.read_from_disk(&mut change, &path);
        self.apply(change);
    }

    fn read_from_disk(&mut self, change: &mut Change, path: &Utf8Path) {
        match vfs::read_file(path, self.host.limits().max_file_size) {
            Ok(read) => {
                self.set_levels(change, path);
                change.set_file(path.to_owned(), Contents::Bytes(read.bytes), Membership::ByName);
            }
            Err(_) if self.host.file(path).is_some() => change.remove_file(path.to_owned()),
            Err(_) => {}
        }
    }

    fn did_change_watched(&mut self, params: lsp::DidChangeWatchedFilesParams) {
        let mut change = Change::new();
        for event in params.changes {
            let Some(path) = uri_to_path(&event.uri) else { continue };
            if path.file_name() == Some(analysis::config::CONFIG_FILE_NAME) {
                // Levels are found again for every file the host holds.
                self.levels =
                    RuleLevelsFinder::new(path.parent().map_or_else(|| "/".into(), Utf8Path::to_owned));
                let paths: Vec<Utf8PathBuf> =
                    self.host.files().map(|file| file.path(self.host.db()).clone()).collect();
                for path in paths {
                    if self
                        .host
                        .file(&path)
                        .is_some_and(|file| file.status(self.host.db()) == FileStatus::Exists)
                    {
                        self.set_levels(&mut change, &path);
                    }
                }
                continue;
            }
            if vfs::FileKind::of(&path).is_none() || self.open.contains_key(&path) {
                continue;
            }
            if event.typ == lsp::FileChangeType::DELETED {
                if self.host.file(&path).is_some() {
                    change.remove_file(path);
                }
            } else {
                self.read_from_disk(&mut change, &path);
            }
        }
        self.apply(change);
    }

    fn did_change_folders(&mut self, params: lsp::DidChangeWorkspaceFoldersParams) {
        for folder in params.event.added {
            if let Some(root) = uri_to_path(&folder.uri) {
                self.start_loading(root);
            }
        }
        let mut change = Change::new();
        for folder in params.event.removed {
            let Some(root) = uri_to_path(&folder.uri) else { continue };
            let paths: Vec<Utf8PathBuf> = self
                .host
                .files()
                .map(|file| file.path(self.host.db()).clone())
                .filter(|path| path.starts_with(&root) && !self.open.contains_key(path))
                .collect();
            for path in paths {
                change.remove_file(path);
            }
        }
        self.apply(change);
        self.schedule_report(self.options.debounce);
    }

    fn on_request(&mut self, request: Request) {
        if !self.loading.is_empty() && request.method != "textDocument/diagnostic" {
            self.deferred.push(request);
            return;
        }
        let Request { id, method, params } = request;
        if method == "textDocument/diagnostic" {
            match parse::<lsp::DocumentDiagnosticParams>(params) {
                Ok(params) => {
                    let Some(path) = uri_to_path(&params.text_document.uri) else {
                        self.send(Response::new_ok(id, self.pulled(Utf8Path::new(""))));
                        return;
                    };
                    // An open document is answered at once with its own
                    // diagnostics while the first report is under way
                    // (the client is told to ask again when it is in);
                    // otherwise from the next report, when one is due, so
                    // that an answer never describes an older text.
                    if self.first_report_due && self.open.contains_key(&path) {
                        self.refresh_owed = true;
                        self.send(Response::new_ok(id, full_report(self.own_diagnostics(&path))));
                    } else if self.report_running || self.report_due.is_some() {
                        self.pulls.push((id, path));
                    } else {
                        self.send(Response::new_ok(id, self.pulled(&path)));
                    }
                }
                Err(error) => self.send(Response { id, response_result: Err(error) }),
            }
            return;
        }
        // Code actions are the last report's fixes, which the main loop
        // holds: answered here, once no report is due (the fixes' ranges
        // are in the text that report read).
        if method == "textDocument/codeAction" {
            match parse::<lsp::CodeActionParams>(params) {
                Ok(params) if self.report_running || self.report_due.is_some() => {
                    self.actions_waiting.push((id, params));
                }
                Ok(params) => self.send(Response::new_ok(id, self.code_actions(&params))),
                Err(error) => self.send(Response { id, response_result: Err(error) }),
            }
            return;
        }
        let handler: Handler = match method.as_str() {
            "textDocument/hover" => handle(hover),
            "textDocument/definition" | "textDocument/declaration" => handle(definition),
            "textDocument/references" => handle(references),
            "textDocument/documentSymbol" => handle(document_symbols),
            "textDocument/formatting" => handle(formatting),
            "textDocument/rangeFormatting" => handle(range_formatting),
            "textDocument/prepareRename" => handle(prepare_rename),
            "textDocument/rename" => handle(rename),
            "textDocument/completion" => handle(completion),
            "textDocument/foldingRange" => handle(folding_ranges),
            "textDocument/selectionRange" => handle(selection_ranges),
            "workspace/symbol" => handle(workspace_symbols),
            "textDocument/signatureHelp" => handle(signature_help),
            "textDocument/inlayHint" => handle(inlay_hints),
            "textDocument/semanticTokens/full" => handle(semantic_tokens_full),
            "textDocument/semanticTokens/range" => handle(semantic_tokens_range),
            "halite/panic" if self.options.debug_requests => {
                handle(|_, _: Json, _| -> Result<Json, ResponseError> {
                    panic!("halite/panic: a request that panics, for the tests")
                })
            }
            "halite/wait" if self.options.debug_requests => handle(wait),
            "halite/stats" if self.options.debug_requests => {
                let stopped = self.stopped_early.load(Ordering::Relaxed);
                self.send(Response::new_ok(id, serde_json::json!({ "stopped_early": stopped })));
                return;
            }
            _ => {
                let message = format!("unknown request {method}");
                self.send(Response::new_err(id, ErrorCode::MethodNotFound as i32, message));
                return;
            }
        };
        let cancelled = Arc::new(AtomicBool::new(false));
        let snapshot = Snapshot {
            db: self.host.db().clone(),
            modules: self
                .modules
                .get_or_insert_with(|| {
                    let host = &self.host;
                    Arc::new(
                        host.module_dirs()
                            .filter_map(|dir| Some((dir.to_owned(), host.module(dir)?)))
                            .collect(),
                    )
                })
                .clone(),
            cancelled: cancelled.clone(),
        };
        self.running.insert(id.clone(), cancelled.clone());
        let internal = self.internal.0.clone();
        let stopped_early = self.stopped_early.clone();
        let answer_id = id.clone();
        let spawned =
            std::thread::Builder::new().name(method.clone()).stack_size(host::DEEP_STACK).spawn(move || {
                let outcome =
                    std::panic::catch_unwind(AssertUnwindSafe(|| handler(&snapshot, params, &cancelled)));
                // The database's handle goes before the answer: a change
                // waiting for it may go ahead.
                drop(snapshot);
                let result = match outcome {
                    Ok(result) => result,
                    Err(payload) if payload.is::<db::salsa::Cancelled>() => {
                        Err(error(CONTENT_MODIFIED, "the document changed".to_string()))
                    }
                    // Answered when the client cancelled it.
                    Err(payload) if payload.is::<ide::ClientCancelled>() => {
                        stopped_early.fetch_add(1, Ordering::Relaxed);
                        Err(error(REQUEST_CANCELLED, "cancelled".to_string()))
                    }
                    Err(payload) => {
                        let message = payload
                            .downcast_ref::<&str>()
                            .map(|it| it.to_string())
                            .or_else(|| payload.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "a panic".to_string());
                        Err(error(ErrorCode::InternalError as i32, format!("{method} failed: {message}")))
                    }
                };
                let _ = internal.send(Internal::Answered { id: answer_id, result });
            });
        if spawned.is_err() {
            self.running.remove(&id);
            self.send(Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "cannot start a thread".to_string(),
            ));
        }
    }
}

fn full_report(items: Vec<lsp::Diagnostic>) -> lsp::DocumentDiagnosticReportResult {
    lsp::DocumentDiagnosticReportResult::Report(lsp::DocumentDiagnosticReport::Full(
        lsp::RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport { result_id: None, items },
        },
    ))
}

/// A request's work on a snapshot: its parameters as JSON, and whether the
/// client cancelled it.
type Handler = Box<dyn FnOnce(&Snapshot, Json, &AtomicBool) -> Result<Json, ResponseError> + Send>;

fn handle<P: serde::de::DeserializeOwned, R: serde::Serialize>(
    f: impl FnOnce(&Snapshot, P, &AtomicBool) -> Result<R, ResponseError> + Send + 'static,
) -> Handler {
    Box::new(move |snapshot, params, cancelled| {
        let params = parse(params)?;
        let result = f(snapshot, params, cancelled)?;
        serde_json::to_value(result).map_err(|it| error(ErrorCode::InternalError as i32, it.to_string()))
    })
}

fn parse<P: serde::de::DeserializeOwned>(params: Json) -> Result<P, ResponseError> {
    serde_json::from_value(params).map_err(|it| error(ErrorCode::InvalidParams as i32, it.to_string()))
}

fn error(code: i32, message: String) -> ResponseError {
    ResponseError { code, message, data: None }
}

fn invalid(message: String) -> ResponseError {
    error(ErrorCode::InvalidParams as i32, message)
}

/// The file a URI names, if the host holds it and it exists.
fn file_of(snapshot: &Snapshot, uri: &Uri) -> Option<File> {
    let path = uri_to_path(uri)?;
    let file = snapshot.db.files().get(&path)?;
    (file.status(&snapshot.db) == FileStatus::Exists).then_some(file)
}

/// The file and byte offset of a position, `Ok(None)` for a document the
/// host does not hold, an error for a position outside it.
fn locate(
    snapshot: &Snapshot,
    at: &lsp::TextDocumentPositionParams,
) -> Result<Option<(File, usize)>, ResponseError> {
    let Some(file) = file_of(snapshot, &at.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let offset = LineIndex::new(text).offset(at.position).ok_or_else(|| {
        invalid(format!("position {}:{} is outside the document", at.position.line, at.position.character))
    })?;
    Ok(Some((file, offset)))
}

fn location(db: &RootDatabase, found: &ide::FileRange) -> lsp::Location {
    let text = found.file.text(db);
    lsp::Location { uri: path_to_uri(found.file.path(db)), range: LineIndex::new(text).range(found.range) }
}

fn hover(
    snapshot: &Snapshot,
    params: lsp::HoverParams,
    _: &AtomicBool,
) -> Result<Option<lsp::Hover>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let offset = (offset as u32).into();
    let (value, range) = if let Some(named) = snapshot.named_at(file, offset) {
        (snapshot.hover(&named), named.range)
    } else if let Some((signature, range)) = snapshot.function_at(file, offset) {
        (format!("```hcl\n{signature}\n```"), range)
    } else {
        return Ok(None);
    };
    Ok(Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value }),
        range: Some(index.range(range)),
    }))
}

fn definition(
    snapshot: &Snapshot,
    params: lsp::GotoDefinitionParams,
    _: &AtomicBool,
) -> Result<Option<lsp::GotoDefinitionResponse>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let Some(named) = snapshot.named_at(file, (offset as u32).into()) else { return Ok(None) };
    let Some(found) = snapshot.definition(named.module, &named.address) else { return Ok(None) };
    Ok(Some(lsp::GotoDefinitionResponse::Scalar(location(&snapshot.db, &found))))
}

fn references(
    snapshot: &Snapshot,
    params: lsp::ReferenceParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::Location>>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position)? else { return Ok(None) };
    let Some(named) = snapshot.named_at(file, (offset as u32).into()) else { return Ok(None) };
    let mut found = Vec::new();
    if params.context.include_declaration
        && let Some(declaration) = snapshot.definition(named.module, &named.address)
    {
        found.push(declaration);
    }
    found.extend(snapshot.references(named.module, &named.address));
    if named.address.smol_segments().first().is_some_and(|it| it == "output") {
        found.extend(snapshot.references_into(named.module, &named.address));
    }
    Ok(Some(found.iter().map(|it| location(&snapshot.db, it)).collect()))
}

fn document_symbols(
    snapshot: &Snapshot,
    params: lsp::DocumentSymbolParams,
    _: &AtomicBool,
) -> Result<Option<lsp::DocumentSymbolResponse>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    #[allow(deprecated)]
    fn convert(index: &LineIndex<'_>, symbol: ide::Symbol) -> lsp::DocumentSymbol {
        lsp::DocumentSymbol {
            name: symbol.name,
            detail: symbol.detail,
            kind: lsp_symbol_kind(symbol.kind),
            tags: None,
            deprecated: None,
            range: index.range(symbol.range),
            selection_range: index.range(symbol.selection),
            children: Some(symbol.children.into_iter().map(|child| convert(index, child)).collect()),
        }
    }
    let symbols = snapshot.symbols(file).into_iter().map(|symbol| convert(&index, symbol)).collect();
    Ok(Some(lsp::DocumentSymbolResponse::Nested(symbols)))
}

/// The folds of a document in lines. A fold that ends with a line of its
/// own closing bracket or heredoc marker stops before it, so that the
/// closing line stays in sight.
fn folding_ranges(
    snapshot: &Snapshot,
    params: lsp::FoldingRangeParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::FoldingRange>>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let mut out = Vec::new();
    for fold in snapshot.folds(file) {
        let start = index.position(fold.range.start().into());
        let end = index.position(fold.range.end().into());
        let mut end_line = end.line;
        if let Some(closing) = fold.closing {
            let line_start = index.offset(lsp::Position::new(end.line, 0)).unwrap_or(0);
            let before = text.get(line_start..usize::from(closing.start())).unwrap_or("x");
            if before.trim().is_empty() {
                end_line = end_line.saturating_sub(1);
            }
        }
        if end_line <= start.line {
            continue;
        }
        out.push(lsp::FoldingRange {
            start_line: start.line,
            start_character: None,
            end_line,
            end_character: None,
            kind: fold.is_comment.then_some(lsp::FoldingRangeKind::Comment),
            collapsed_text: None,
        });
    }
    Ok(Some(out))
}

/// For each position, the ranges around it from the innermost out.
fn selection_ranges(
    snapshot: &Snapshot,
    params: lsp::SelectionRangeParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::SelectionRange>>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let mut out = Vec::new();
    for position in params.positions {
        let offset = index.offset(position).ok_or_else(|| {
            invalid(format!("position {}:{} is outside the document", position.line, position.character))
        })?;
        let ranges = snapshot.selection(file, (offset as u32).into());
        let mut nested: Option<lsp::SelectionRange> = None;
        for range in ranges.into_iter().rev() {
            nested = Some(lsp::SelectionRange { range: index.range(range), parent: nested.map(Box::new) });
        }
        // A position the tree does not cover (an empty file) is its own.
        out.push(
            nested
                .unwrap_or(lsp::SelectionRange { range: lsp::Range::new(position, position), parent: None }),
        );
    }
    Ok(Some(out))
}

#[allow(deprecated)]
fn workspace_symbols(
    snapshot: &Snapshot,
    params: lsp::WorkspaceSymbolParams,
    _: &AtomicBool,
) -> Result<Option<lsp::WorkspaceSymbolResponse>, ResponseError> {
    let symbols = snapshot
        .workspace_symbols(&params.query)
        .into_iter()
        .map(|symbol| lsp::SymbolInformation {
            name: symbol.name,
            kind: lsp_symbol_kind(symbol.kind),
            tags: None,
            deprecated: None,
            location: location(&snapshot.db, &symbol.location),
            container_name: vfs::module_dir(symbol.location.file.path(&snapshot.db))
                .file_name()
                .map(str::to_string),
        })
        .collect();
    Ok(Some(lsp::WorkspaceSymbolResponse::Flat(symbols)))
}

fn lsp_symbol_kind(kind: SymbolKind) -> lsp::SymbolKind {
    match kind {
        SymbolKind::Block => lsp::SymbolKind::STRUCT,
        SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
        SymbolKind::Output => lsp::SymbolKind::PROPERTY,
        SymbolKind::Module => lsp::SymbolKind::MODULE,
        SymbolKind::Attribute => lsp::SymbolKind::FIELD,
    }
}

/// The whole document as `halite fmt` writes it, or nothing (refused)
/// when it has syntax errors, is not UTF-8 or is in the JSON syntax.
fn formatting(
    snapshot: &Snapshot,
    params: lsp::DocumentFormattingParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::TextEdit>>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let Some(formatted) = host::formatted(&snapshot.db, file) else { return Ok(Some(Vec::new())) };
    if formatted.as_str() == &**text {
        return Ok(Some(Vec::new()));
    }
    let index = LineIndex::new(text);
    let whole = lsp::Range::new(lsp::Position::new(0, 0), index.position(text.len()));
    Ok(Some(vec![lsp::TextEdit::new(whole, formatted.clone())]))
}

/// The lines `halite fmt` changes within a range: the whole file is
/// formatted, and each run of changed lines that lies in the range is one
/// edit (runs are independent, so any subset of them is sound).
fn range_formatting(
    snapshot: &Snapshot,
    params: lsp::DocumentRangeFormattingParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::TextEdit>>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let Some(formatted) = host::formatted(&snapshot.db, file) else { return Ok(Some(Vec::new())) };
    let index = LineIndex::new(text);
    let (first, last) = (params.range.start.line as usize, params.range.end.line as usize);
    let old_lines: Vec<&str> = text.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = formatted.split_inclusive('\n').collect();
    let line_start =
        |line: usize| -> usize { old_lines[..line.min(old_lines.len())].iter().map(|it| it.len()).sum() };
    let diff = similar::capture_diff_slices(similar::Algorithm::Myers, &old_lines, &new_lines);
    let mut edits = Vec::new();
    for op in diff {
        if matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let (old, new) = (op.old_range(), op.new_range());
        // A pure insertion touches the line it goes before.
        let touched_last = if old.is_empty() { old.start } else { old.end - 1 };
        if old.start < first || touched_last > last {
            continue;
        }
        let range =
            lsp::Range::new(index.position(line_start(old.start)), index.position(line_start(old.end)));
        edits.push(lsp::TextEdit::new(range, new_lines[new].concat()));
    }
    Ok(Some(edits))
}

fn prepare_rename(
    snapshot: &Snapshot,
    params: lsp::TextDocumentPositionParams,
    _: &AtomicBool,
) -> Result<Option<lsp::PrepareRenameResponse>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params)? else { return Ok(None) };
    let Some(named) = snapshot.named_at(file, (offset as u32).into()) else {
        return Err(invalid("nothing that can be renamed is here".to_string()));
    };
    snapshot.rename_kind(&named).map_err(invalid)?;
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let name = named.address.smol_segments().last().map(|it| it.to_string()).unwrap_or_default();
    Ok(Some(lsp::PrepareRenameResponse::RangeWithPlaceholder {
        range: index.range(named.range),
        placeholder: name,
    }))
}

// `WorkspaceEdit::changes` is keyed by `Uri`, whose parsed form clippy
// takes for interior mutability; nothing mutates it here.
#[allow(clippy::mutable_key_type)]
fn rename(
    snapshot: &Snapshot,
    params: lsp::RenameParams,
    _: &AtomicBool,
) -> Result<Option<lsp::WorkspaceEdit>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position)? else { return Ok(None) };
    let Some(named) = snapshot.named_at(file, (offset as u32).into()) else {
        return Err(invalid("nothing that can be renamed is here".to_string()));
    };
    let edits = snapshot.rename(&named, &params.new_name).map_err(invalid)?;
    let mut changes: HashMap<Uri, Vec<lsp::TextEdit>> = HashMap::new();
    for (found, new_text) in edits {
        let text = found.file.text(&snapshot.db);
        let range = LineIndex::new(text).range(found.range);
        changes
            .entry(path_to_uri(found.file.path(&snapshot.db)))
            .or_default()
            .push(lsp::TextEdit::new(range, new_text));
    }
    Ok(Some(lsp::WorkspaceEdit { changes: Some(changes), ..lsp::WorkspaceEdit::default() }))
}

fn completion(
    snapshot: &Snapshot,
    params: lsp::CompletionParams,
    _: &AtomicBool,
) -> Result<Option<lsp::CompletionResponse>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position)? else { return Ok(None) };
    let (items, is_incomplete) = snapshot.completions(file, (offset as u32).into());
    let items = items
        .into_iter()
        .map(|item| lsp::CompletionItem {
            label: item.label,
            kind: Some(match item.kind {
                CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
                CompletionKind::Local => lsp::CompletionItemKind::VARIABLE,
                CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
                CompletionKind::Root => lsp::CompletionItemKind::KEYWORD,
                CompletionKind::Argument => lsp::CompletionItemKind::PROPERTY,
                CompletionKind::Block => lsp::CompletionItemKind::STRUCT,
            }),
            detail: item.detail,
            ..lsp::CompletionItem::default()
        })
        .collect();
    Ok(Some(lsp::CompletionResponse::List(lsp::CompletionList { is_incomplete, items })))
}

/// `halite/wait` (tests only): reads the database until a change cancels
/// the request, the client cancels it, or ten seconds pass.
fn wait(snapshot: &Snapshot, _: Json, cancelled: &AtomicBool) -> Result<Json, ResponseError> {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until && !cancelled.load(Ordering::Relaxed) {
        snapshot.db.unwind_if_revision_cancelled();
        std::thread::sleep(Duration::from_millis(2));
    }
    Ok(Json::Null)
}

fn signature_help(
    snapshot: &Snapshot,
    params: lsp::SignatureHelpParams,
    _: &AtomicBool,
) -> Result<Option<lsp::SignatureHelp>, ResponseError> {
    let Some((file, offset)) = locate(snapshot, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let Some(found) = snapshot.signature_at(file, (offset as u32).into()) else { return Ok(None) };
    let utf16 = |text: &str| text.encode_utf16().count() as u32;
    let parameters = found
        .params
        .iter()
        .map(|&(start, end)| lsp::ParameterInformation {
            label: lsp::ParameterLabel::LabelOffsets([
                utf16(&found.label[..start]),
                utf16(&found.label[..end]),
            ]),
            documentation: None,
        })
        .collect();
    let active = found.active.map(|it| it as u32);
    Ok(Some(lsp::SignatureHelp {
        signatures: vec![lsp::SignatureInformation {
            label: found.label,
            documentation: None,
            parameters: Some(parameters),
            active_parameter: active,
        }],
        active_signature: Some(0),
        active_parameter: active,
    }))
}

fn inlay_hints(
    snapshot: &Snapshot,
    params: lsp::InlayHintParams,
    _: &AtomicBool,
) -> Result<Option<Vec<lsp::InlayHint>>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let start = index.offset_clamped(params.range.start);
    let end = index.offset_clamped(params.range.end).max(start);
    let within = syntax::TextRange::new((start as u32).into(), (end as u32).into());
    let hints = snapshot
        .value_hints(file, within)
        .into_iter()
        .map(|hint| lsp::InlayHint {
            position: index.position(hint.at.into()),
            label: lsp::InlayHintLabel::String(format!("= {}", hint.value)),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect();
    Ok(Some(hints))
}

/// The legend of semantic tokens: the protocol's names of
/// [`ide::HighlightKind::ALL`], in order, and the one modifier.
pub(crate) fn semantic_tokens_legend() -> lsp::SemanticTokensLegend {
    let types = ide::HighlightKind::ALL
        .iter()
        .map(|kind| match kind {
            ide::HighlightKind::Keyword => lsp::SemanticTokenType::KEYWORD,
            ide::HighlightKind::Variable => lsp::SemanticTokenType::VARIABLE,
            ide::HighlightKind::Property => lsp::SemanticTokenType::PROPERTY,
            ide::HighlightKind::Function => lsp::SemanticTokenType::FUNCTION,
            ide::HighlightKind::Type => lsp::SemanticTokenType::TYPE,
            ide::HighlightKind::Label => lsp::SemanticTokenType::CLASS,
            ide::HighlightKind::String => lsp::SemanticTokenType::STRING,
            ide::HighlightKind::Number => lsp::SemanticTokenType::NUMBER,
            ide::HighlightKind::Comment => lsp::SemanticTokenType::COMMENT,
            ide::HighlightKind::Interpolation => lsp::SemanticTokenType::OPERATOR,
            ide::HighlightKind::Parameter => lsp::SemanticTokenType::PARAMETER,
        })
        .collect();
    lsp::SemanticTokensLegend {
        token_types: types,
        token_modifiers: vec![lsp::SemanticTokenModifier::DECLARATION],
    }
}

fn semantic_tokens_full(
    snapshot: &Snapshot,
    params: lsp::SemanticTokensParams,
    _: &AtomicBool,
) -> Result<Option<lsp::SemanticTokensResult>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let data = encode_tokens(snapshot, file, None);
    Ok(Some(lsp::SemanticTokensResult::Tokens(lsp::SemanticTokens { result_id: None, data })))
}

fn semantic_tokens_range(
    snapshot: &Snapshot,
    params: lsp::SemanticTokensRangeParams,
    _: &AtomicBool,
) -> Result<Option<lsp::SemanticTokensRangeResult>, ResponseError> {
    let Some(file) = file_of(snapshot, &params.text_document.uri) else { return Ok(None) };
    let text = file.text(&snapshot.db);
    let index = LineIndex::new(text);
    let start = index.offset_clamped(params.range.start);
    let end = index.offset_clamped(params.range.end).max(start);
    let within = syntax::TextRange::new((start as u32).into(), (end as u32).into());
    let data = encode_tokens(snapshot, file, Some(within));
    Ok(Some(lsp::SemanticTokensRangeResult::Tokens(lsp::SemanticTokens { result_id: None, data })))
}

/// A file's highlights in the protocol's relative encoding.
fn encode_tokens(
    snapshot: &Snapshot,
    file: File,
    within: Option<syntax::TextRange>,
) -> Vec<lsp::SemanticToken> {
    let text = file.text(&snapshot.db);
    let mut out = Vec::new();
    let (mut line, mut column) = (0, 0);
    // Positions are found walking forward from the last token, so that a
    // file of one long line costs its length once, not once per token.
    let (mut at, mut position) = (0usize, lsp::Position::new(0, 0));
    for highlight in snapshot.highlights(file, within) {
        let offset = usize::from(highlight.range.start());
        let between = &text[at.min(offset)..offset];
        match between.rfind('\n') {
            Some(newline) => {
                position.line += between.matches('\n').count() as u32;
                position.character = between[newline + 1..].encode_utf16().count() as u32;
            }
            None => position.character += between.encode_utf16().count() as u32,
        }
        at = offset;
        let start = position;
        let length = text[highlight.range].encode_utf16().count() as u32;
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 { start.character - column } else { start.character };
        let token_type =
            ide::HighlightKind::ALL.iter().position(|it| *it == highlight.kind).unwrap_or(0) as u32;
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type,
            token_modifiers_bitset: u32::from(highlight.declaration),
        });
        (line, column) = (start.line, start.character);
    }
    out
}

fn to_lsp_diagnostic(located: &LocatedDiagnostic, index: &LineIndex<'_>, uri: &Uri) -> lsp::Diagnostic {
    let diagnostic = &located.diagnostic;
    let mut message = diagnostic.message.clone();
    if let Some(label) = &diagnostic.label {
        message.push_str(": ");
        message.push_str(label);
    }
    for note in &diagnostic.notes {
        message.push('\n');
        message.push_str(note);
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .map(|label| lsp::DiagnosticRelatedInformation {
            location: lsp::Location { uri: uri.clone(), range: index.range(label.range) },
            message: label.message.clone(),
        })
        .collect();
    // A lint rule's code says where its explanation is.
    let data = analysis::rules::rule(diagnostic.code)
        .map(|_| serde_json::json!({ "explain": format!("halite rule {}", diagnostic.code) }));
    lsp::Diagnostic {
        range: index.range(diagnostic.range),
        severity: Some(match diagnostic.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(diagnostic.code.to_string())),
        code_description: None,
        source: Some("halite".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data,
    }
}
