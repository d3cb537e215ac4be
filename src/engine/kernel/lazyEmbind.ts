/**
 * A faster start for the kernel's Emscripten glue (opencascade.js 2.0.0-beta.6e177a4, pinned): a
 * change to its text, applied when the page is bundled (vite.config.ts); any host that loads the
 * glue's text can apply it (bench/kernelGlue.ts loads it in Node).
 *
 * Most of the kernel's start is not WebAssembly: it is embind registering ~25k bindings in JS, and
 * for each one the glue compiles two functions from source with `new Function` (an invoker that
 * converts the arguments, and a wrapper that only carries a name). Measured in Node on the stock
 * glue: 3.0 s of 9.1 s in those compilations and 2.4 s in the garbage collector that their source
 * strings feed. This patch
 * - builds the invoker the first time the binding is called, not when it is registered: a session
 *   calls a few hundred of the 25k bindings;
 * - names functions without compiling source (`{[name]: function}[name]` has that name), as
 *   Emscripten's later releases do.
 * Bindings behave as before: same `this`, same arguments, same argument-count check, same errors
 * (raised by the invoker when it is built and called); a built invoker is kept, so each is
 * compiled at most once. Each patched text must occur exactly once, or the build stops: another
 * glue version needs the patch checked again.
 */

const CREATE_NAMED_FUNCTION =
  'function createNamedFunction(name,body){name=makeLegalFunctionName(name);return new Function("body","return function "+name+"() {\\n"+\'    "use strict";\'+"    return body.apply(this, arguments);\\n"+"};\\n")(body)}';
const CREATE_NAMED_FUNCTION_WITHOUT_EVAL =
  'function createNamedFunction(name,body){name=makeLegalFunctionName(name);return{[name]:function(){"use strict";return body.apply(this,arguments)}}[name]}';

const CRAFT_INVOKER = 'function craftInvokerFunction(humanName,argTypes,classType,cppInvokerFunc,cppTargetFunc){';
const CRAFT_INVOKER_ON_FIRST_CALL =
  'function craftInvokerFunction(humanName,argTypes,classType,cppInvokerFunc,cppTargetFunc){var crafted,name=makeLegalFunctionName(humanName);' +
  'return{[name]:function(){crafted??=craftInvokerFunctionNow(humanName,argTypes,classType,cppInvokerFunc,cppTargetFunc);return crafted.apply(this,arguments)}}[name]}' +
  'function craftInvokerFunctionNow(humanName,argTypes,classType,cppInvokerFunc,cppTargetFunc){';

/** Where the patch applies: the glue's file (Vite module ids may carry a query). */
export const KERNEL_GLUE_ID = /[\\/]opencascade\.js[\\/]dist[\\/]opencascade\.full\.js(\?.*)?$/;

/** The glue's text with invokers built on first call and functions named without eval. */
export function lazyEmbind(glue: string): string {
  return [
    [CREATE_NAMED_FUNCTION, CREATE_NAMED_FUNCTION_WITHOUT_EVAL],
    [CRAFT_INVOKER, CRAFT_INVOKER_ON_FIRST_CALL],
  ].reduce((text, [from, to]) => replaceOnce(text, from!, to!), glue);
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `lazyEmbind: the kernel glue does not contain '${from.slice(0, 60)}…' exactly once; ` +
        'was opencascade.js upgraded? Check src/engine/kernel/lazyEmbind.ts against the new glue.',
    );
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}
