import * as std from 'std';
import { routerPorts } from './ports.js';
import { runSetup } from '../../src/cli/setup.js';

std.exit(runSetup(routerPorts(), scriptArgs.slice(1)));
