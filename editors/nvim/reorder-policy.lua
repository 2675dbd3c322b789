-- reorder-policy's language server (`reorder-policy lsp`) for Neovim 0.7 and later.
--
-- Starts one server per project for YAML buffers that are policy files (a top-level
-- `reorder-policy:` key, as `lint --only-policies` decides) and attaches them to it. Uses
-- vim.lsp.start_client / vim.lsp.buf_attach_client, which Neovim 0.7 has (vim.lsp.start
-- came in 0.8), so it runs on Debian's 0.7.2 as on current releases.
--
-- In init.lua:
--
--   vim.g.reorder_policy_cmd = { "reorder-policy", "lsp" }   -- optional: the default
--   dofile("/path/to/reorder-policy/editors/nvim/reorder-policy.lua")
--
-- Options (set before dofile):
--   vim.g.reorder_policy_cmd       the command, a list (default { "reorder-policy", "lsp" })
--   vim.g.reorder_policy_all_yaml  true: attach to every YAML buffer, policy or not
--
-- The project root is the nearest directory above the file that holds .reorder-policy.yml
-- (or .reorder-policy.yaml) or .git; without one, the file's own directory.

local uv = vim.loop

local M = { clients = {} } -- root directory -> client id

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ":h")
  if up == dir then
    return nil
  end
  return up
end

function M.root_dir(file)
  local start = vim.fn.fnamemodify(file, ":p:h")
  local dir = start
  while dir do
    for _, marker in ipairs({ ".reorder-policy.yml", ".reorder-policy.yaml", ".git" }) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    dir = parent(dir)
  end
  return start
end

function M.is_policy(bufnr)
  if vim.g.reorder_policy_all_yaml then
    return true
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:match("^reorder%-policy%s*:") or line:match("^[\"']reorder%-policy[\"']%s*:") then
      return true
    end
  end
  return false
end

function M.command()
  local cmd = vim.g.reorder_policy_cmd
  if type(cmd) == "string" then
    return { cmd, "lsp" }
  end
  if type(cmd) == "table" and #cmd > 0 then
    return cmd
  end
  return { "reorder-policy", "lsp" }
end

function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == "" or vim.bo[bufnr].buftype ~= "" or not M.is_policy(bufnr) then
    return nil
  end
  local root = M.root_dir(file)
  local id = M.clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    local cmd = M.command()
    if vim.fn.executable(cmd[1]) ~= 1 then
      vim.notify("reorder-policy: " .. tostring(cmd[1]) .. " is not executable", vim.log.levels.WARN)
      return nil
    end
    id = vim.lsp.start_client({
      name = "reorder-policy",
      cmd = cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      on_exit = function()
        M.clients[root] = nil
      end,
    })
    if id == nil then
      return nil
    end
    M.clients[root] = id
  end
  if not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local group = vim.api.nvim_create_augroup("reorder-policy-lsp", { clear = true })
vim.api.nvim_create_autocmd({ "FileType" }, {
  group = group,
  pattern = "yaml",
  callback = function(args)
    M.attach(args.buf)
  end,
})
-- A new file becomes a policy once its `reorder-policy:` key is written.
vim.api.nvim_create_autocmd({ "BufWritePost" }, {
  group = group,
  pattern = { "*.yaml", "*.yml" },
  callback = function(args)
    M.attach(args.buf)
  end,
})

return M
