import * as std from 'std';
import { routerPorts } from './ports.js';
import { runTokenCli } from '../../src/token-cli.js';

std.exit(runTokenCli(routerPorts(), scriptArgs.slice(1)));
