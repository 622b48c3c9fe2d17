/** tr46's own Unicode property patterns (Bidi classes, combining marks), of the same Unicode version as its mapping table. */
declare module 'tr46/lib/regexes.js' {
  export const combiningMarks: RegExp
  export const bidiDomain: RegExp
}

/** punycode's CommonJS entry, the file tr46 itself requires, rather than Node's deprecated built-in module of that name. */
declare module 'punycode/punycode.js' {
  import punycode = require('punycode')
  export = punycode
}
