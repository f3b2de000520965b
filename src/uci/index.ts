export {
  addSection,
  anonymousName,
  findSection,
  isValidName,
  isValidType,
  removeSection,
  renameSection,
  type UciPackage,
  type UciSection,
  type UciValue,
} from './model.js';
export { parseUci, UciSyntaxError } from './parse.js';
export { serializeUci } from './serialize.js';
