export {
  addSection,
  findSection,
  isValidName,
  isValidType,
  removeSection,
  renameSection,
  type UciPackage,
  type UciSection,
  type UciValue,
} from './model.js';
export { anonymousName, UciSyntaxError } from './builder.js';
export { readUci } from './read.js';
export { serializeUci } from './serialize.js';
