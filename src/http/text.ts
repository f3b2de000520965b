// What no string of a request may hold, for it could not be stored as sent: libuci's
// uci_validate_text refuses every control character but tab, LF and CR (`uci set` and `uci batch`
// refuse such a value, and so would the next tool to write the option back), a NUL ends a C string,
// and an unpaired surrogate has no UTF-8 (it would be written as the bytes of CESU-8). DEL and the
// C1 controls are UTF-8 text libuci keeps as it is.

/** The characters, as the inside of a regular expression class (with the `u` flag): controls, then surrogates. */
export const UNWRITABLE_PARTS = ['\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f', '\\ud800-\\udfff'];
export const UNWRITABLE_CLASS = UNWRITABLE_PARTS.join('');

/** The rule as a JSON Schema pattern, for a string no other pattern constrains. */
export const TEXT_PATTERN = `^[^${UNWRITABLE_CLASS}]*$`;

// UNWRITABLE_CLASS spelled out: a literal is compiled with its module, so wrtapi-bytecode keeps it
// compiled, where `new RegExp` compiled it again on every request (test/unit/text.test.ts holds the two alike).
const UNWRITABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]/u;

/** Whether the text holds a character no configuration file can hold. */
export const isUnwritable = (text: string): boolean => UNWRITABLE.test(text);

export const UNWRITABLE_MESSAGE = 'must not hold a control character other than tab, LF and CR, nor an unpaired surrogate';
