import { exit } from 'std';
import { routerPorts } from './ports.js';
import { runTokenCli } from '../../src/cli/token.js';

runTokenCli(routerPorts(), scriptArgs.slice(1)).then((code) => exit(code));
