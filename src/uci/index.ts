export {
  addSection,
  anonymousName,
  findSection,
  isValidName,
  isValidType,
  removeSection,
  renameSection,
  UciSyntaxError,
  type UciPackage,
  type UciSection,
  type UciValue,
} from './model.js';
export { readUci } from './read.js';
export { serializeUci } from './serialize.js';
