import * as std from 'std';
import { routerPorts } from './ports.js';
import { runConfirm } from '../../src/cli/confirm.js';

std.exit(runConfirm(routerPorts(), scriptArgs.slice(1)));
