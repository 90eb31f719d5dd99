/**
 * How a hint spells svc so that it works where it is printed (issue 28 item 3): `npx svc` when this
 * svc was started by npx (npm sets npm_command=exec), which finds it again from the same folder;
 * otherwise `svc`, the bin `npm install -g ./packages/cli` puts on PATH (packages/cli/README.md,
 * "Install"). Never a bare `npx svc` outside the repository: that name is an unrelated public package.
 */
export function svcCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_HINT_COMMAND ?? (env.npm_command === "exec" ? "npx svc" : "svc");
}
