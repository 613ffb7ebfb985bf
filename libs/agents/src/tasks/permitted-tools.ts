/** Whether constraints.permitted_tools lets a task call this tool: empty permits every tool; entries are "tool" or "server/tool". */
export function isPermittedTool(permittedTools: readonly string[], tool: { name: string; serverId: string }): boolean {
  return (
    permittedTools.length === 0 ||
    permittedTools.includes(tool.name) ||
    permittedTools.includes(`${tool.serverId}/${tool.name}`)
  );
}
