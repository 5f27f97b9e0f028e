-- Drives Neovim's built-in LSP client against `halite lsp` (see run.sh).
-- Only the client API of Neovim 0.7 is used (start_client,
-- buf_attach_client, request_sync, vim.diagnostic), so that it runs on
-- the Neovim of Debian 12 and on later ones.
local halite = os.getenv("HALITE_BIN")
local root = os.getenv("HALITE_ROOT")
local main = root .. "/main.tf"

local function say(message)
  io.stdout:write(message .. "\n")
end

local function fail(message)
  io.stdout:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function check(condition, message)
  if not condition then
    fail(message)
  end
end

vim.cmd("edit " .. vim.fn.fnameescape(main))
local buffer = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "halite",
  cmd = { halite, "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "workspace" } },
})
check(client_id ~= nil, "the client did not start")
vim.lsp.buf_attach_client(buffer, client_id)
local client = vim.lsp.get_client_by_id(client_id)
local uri = vim.uri_from_bufnr(buffer)

local function request(method, params)
  local response, err = client.request_sync(method, params, 20000, buffer)
  check(response ~= nil, method .. ": no response (" .. tostring(err) .. ")")
  check(response.err == nil, method .. ": " .. vim.inspect(response.err))
  return response.result
end

local function at(line, character)
  return { textDocument = { uri = uri }, position = { line = line, character = character } }
end

-- Diagnostics: `halite check`'s three (halite.toml makes legacy-index an
-- error; the ignore comment hides interpolation-only).
local got = vim.wait(20000, function()
  return #vim.diagnostic.get(buffer) == 3
end, 50)
check(got, "no diagnostics: " .. vim.inspect(vim.diagnostic.get(buffer)))
local codes = {}
for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
  table.insert(codes, diagnostic.lnum + 1 .. ":" .. tostring(diagnostic.code))
end
table.sort(codes)
check(table.concat(codes, " ") == "3:unused-declaration 4:legacy-index 6:unused-declaration",
  "diagnostics: " .. table.concat(codes, " "))
say("diagnostics: " .. table.concat(codes, " "))

-- Quick fixes on `var.zones.0`: the rule's fix, preferred, then the
-- ignore comment.
local actions = request("textDocument/codeAction", {
  textDocument = { uri = uri },
  range = { start = { line = 3, character = 26 }, ["end"] = { line = 3, character = 26 } },
  context = { diagnostics = {} },
})
check(actions ~= nil and #actions == 2 and actions[1].isPreferred == true, "code actions: " .. vim.inspect(actions))
check(actions[2].title == "ignore `legacy-index` on this line", "code actions: " .. actions[2].title)
say("code actions: " .. actions[1].title .. "; " .. actions[2].title)

-- Signature help inside `length(var.zones)`, and semantic tokens.
local help = request("textDocument/signatureHelp", at(2, 24))
check(help ~= nil and help.signatures[1].label:find("^length%(") ~= nil, "signature help: " .. vim.inspect(help))
say("signature help: " .. help.signatures[1].label)
local tokens = request("textDocument/semanticTokens/full", { textDocument = { uri = uri } })
check(tokens ~= nil and #tokens.data > 0 and #tokens.data % 5 == 0, "semantic tokens: " .. vim.inspect(tokens))
say("semantic tokens: " .. #tokens.data / 5)

-- Hover on `var.region`.
local hover = request("textDocument/hover", at(1, 30))
check(hover and hover.contents.value:find("**var.region**", 1, true) ~= nil, "hover: " .. vim.inspect(hover))
check(hover.contents.value:find("Where the network lives.", 1, true) ~= nil, "hover: " .. hover.contents.value)
say("hover: " .. hover.contents.value:gsub("\n", " "))

-- Go to definition, as the editor does it: the cursor moves to the
-- variable's declaration in variables.tf.
vim.api.nvim_win_set_cursor(0, { 2, 30 })
vim.lsp.buf.definition()
local jumped = vim.wait(20000, function()
  return vim.api.nvim_buf_get_name(0):match("variables%.tf$") ~= nil
end, 50)
check(jumped, "definition: still in " .. vim.api.nvim_buf_get_name(0))
check(vim.api.nvim_win_get_cursor(0)[1] == 1, "definition: line " .. vim.api.nvim_win_get_cursor(0)[1])
say("definition: " .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ":t") .. ":" .. vim.api.nvim_win_get_cursor(0)[1])
vim.cmd("buffer " .. buffer)

-- Rename `local.name` to `label`: its declaration and both references.
local edit = request("textDocument/rename", vim.tbl_extend("force", at(1, 3), { newName = "label" }))
vim.lsp.util.apply_workspace_edit(edit, client.offset_encoding or "utf-16")
local text = table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), "\n") .. "\n"
local _, renamed = text:gsub("local%.label", "")
check(renamed == 2 and text:find("\n  label        = ", 1, true) ~= nil, "rename: " .. text)
say("rename: " .. renamed .. " references and the declaration")

-- Format: the buffer (as the server has it after the rename, which came
-- as incremental changes) becomes what `halite fmt` writes.
local expected = vim.fn.system({ halite, "fmt", "-", "--stdin-filename", "main.tf" }, text)
local edits = request("textDocument/formatting", { textDocument = { uri = uri }, options = { tabSize = 2, insertSpaces = true } })
check(edits ~= nil and #edits > 0, "formatting: no edits")
vim.lsp.util.apply_text_edits(edits, buffer, client.offset_encoding or "utf-16")
local formatted = table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), "\n") .. "\n"
check(formatted == expected, "formatting:\n" .. formatted .. "\nexpected:\n" .. expected)
say("formatting: identical to halite fmt")

client.stop()
vim.wait(5000, function()
  return client.is_stopped()
end, 50)
say("ok")
vim.cmd("qall!")
