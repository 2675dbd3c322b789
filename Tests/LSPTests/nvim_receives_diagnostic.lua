-- Headless Neovim (0.7.2 or later) receives reorder-policy's diagnostics through
-- editors/nvim/reorder-policy.lua. Run by run_nvim.sh:
--
--   nvim --headless --clean -u Tests/LSPTests/nvim_receives_diagnostic.lua POLICY_WITH_A_TYPO
--
-- Prints `ok: unknown-key at line N` and exits 0 when the diagnostic arrives within 10 s,
-- else prints what it saw and exits 1.

local here = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
local root = os.getenv("REORDER_POLICY_ROOT") or vim.fn.fnamemodify(here, ":h:h")
local bin = os.getenv("REORDER_POLICY_BIN")

local function finish(code, text)
  io.stdout:write(text .. "\n")
  io.stdout:flush()
  if code == 0 then
    vim.cmd("qa!")
  else
    vim.cmd("cquit " .. code)
  end
end

if bin == nil or bin == "" then
  finish(2, "REORDER_POLICY_BIN is not set")
end

vim.g.reorder_policy_cmd = { bin, "lsp" }
dofile(root .. "/editors/nvim/reorder-policy.lua")

local function code_of(d)
  if d.code ~= nil then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    local found
    vim.wait(10000, function()
      for _, d in ipairs(vim.diagnostic.get(0)) do
        if code_of(d) == "unknown-key" then
          found = d
          return true
        end
      end
      return false
    end, 50)
    if found then
      finish(0, string.format("ok: unknown-key at line %d", found.lnum + 1))
    else
      local seen = {}
      for _, d in ipairs(vim.diagnostic.get(0)) do
        table.insert(seen, string.format("%s at %d:%d %q", tostring(code_of(d)), d.lnum + 1, d.col + 1, d.message))
      end
      local clients = {}
      for _, c in pairs(vim.lsp.buf_get_clients(0)) do
        table.insert(clients, c.name)
      end
      finish(1, string.format(
        "no unknown-key diagnostic within 10 s (filetype %q, clients attached: [%s]); diagnostics: [%s]",
        vim.bo.filetype, table.concat(clients, ", "), table.concat(seen, "; ")))
    end
  end,
})
