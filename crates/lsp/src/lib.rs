//! The language server, `halite lsp`: one more front end over the analysis
//! host, speaking the Language Server Protocol (rust-analyzer's
//! `lsp-server` and `lsp-types`) on standard input and output.
//!
//! It owns the protocol only: the documents the editor holds open (their
//! text, edited incrementally), turning URIs and UTF-16 positions into
//! paths and byte offsets, and the main loop that orders it all. The host
//! owns everything else: every edit, opened document, file changed on disk
//! and workspace folder is a host `Change`; diagnostics are the host's
//! reports (the same pipeline as `halite check`: rule levels from
//! `halite.toml`, `# halite-ignore` comments, the cap per file), pushed
//! after a short debounce and pulled with `textDocument/diagnostic` (while
//! the workspace is first read and reported, in parts so that one part's
//! trees are held at a time, an open document's own syntax errors and
//! lints come at once, and the report's replace them);
//! formatting is the host's (`halite fmt`'s text, in the style the file's
//! name gives it); code actions are the last report's fixes and ignore
//! comments. Hover, definitions, references, symbols (document and
//! workspace), folding and selection ranges, rename, completion, signature
//! help, inlay hints and semantic tokens read a snapshot of the database
//! (`ide`), on a thread per request: an edit applied meanwhile cancels them
//! through salsa and they answer `ContentModified`; one the client cancels
//! stops at the next file it visits; a panic in one is answered as an
//! error and the server goes on.
//!
//! It must never depend on the command line: the `halite` binary calls
//! [`run_stdio`].

mod convert;
mod ide;
mod server;

use std::time::Duration;

use lsp_server::Connection;
use lsp_types as lsp;

pub use crate::convert::{LineIndex, path_to_uri, uri_to_path};

/// How the server behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// How long after the last edit diagnostics are computed and published.
    pub debounce: Duration,
    /// Whether the requests the tests use (`halite/panic`, `halite/wait`)
    /// are answered.
    pub debug_requests: bool,
    /// Files whose diagnostics one report job finds, at most (but a
    /// module is never split): a workspace's first report goes in parts,
    /// each committed before the next starts, so that the server holds
    /// one part's syntax trees at a time rather than every file's (see
    /// `AnalysisHost::prepare_report_part`).
    pub files_per_report_part: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { debounce: Duration::from_millis(50), debug_requests: false, files_per_report_part: 64 }
    }
}

/// Serves one client on standard input and output until it says `exit`.
pub fn run_stdio() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    run(&connection, Options::default())?;
    drop(connection);
    io_threads.join().map_err(|error| error.to_string())
}

/// Serves one client on `connection`: the `initialize` handshake, then
/// requests and notifications until `exit` (or the connection closes).
pub fn run(connection: &Connection, options: Options) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|error| error.to_string())?;
    let params: lsp::InitializeParams =
        serde_json::from_value(params).map_err(|error| format!("bad initialize parameters: {error}"))?;
    let result = lsp::InitializeResult {
        capabilities: capabilities(),
        server_info: Some(lsp::ServerInfo {
            name: "halite".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    let result = serde_json::to_value(result).map_err(|error| error.to_string())?;
    connection.initialize_finish(id, result).map_err(|error| error.to_string())?;
    server::main_loop(connection, options, &params)
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
            ..lsp::TextDocumentSyncOptions::default()
        })),
        diagnostic_provider: Some(lsp::DiagnosticServerCapabilities::Options(lsp::DiagnosticOptions {
            identifier: Some("halite".to_string()),
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        })),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_range_formatting_provider: Some(lsp::OneOf::Left(true)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        declaration_provider: Some(lsp::DeclarationCapability::Simple(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(lsp::SelectionRangeProviderCapability::Simple(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![".".to_string()]),
            ..lsp::CompletionOptions::default()
        }),
        signature_help_provider: Some(lsp::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
            retrigger_characters: None,
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        }),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        semantic_tokens_provider: Some(lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp::SemanticTokensOptions {
                work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
                legend: server::semantic_tokens_legend(),
                range: Some(true),
                full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
            },
        )),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
            resolve_provider: None,
        })),
        workspace: Some(lsp::WorkspaceServerCapabilities {
            workspace_folders: Some(lsp::WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(lsp::OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..lsp::ServerCapabilities::default()
    }
}
