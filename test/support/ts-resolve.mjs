// A module hook for running TypeScript sources directly under a Node that strips types (22.6+):
// the sources import "./x.js", which names "./x.ts" on disk.
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (specifier.startsWith(".") && specifier.endsWith(".js")) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw err;
  }
}
