import { exit } from 'std';
import { routerPorts } from './ports.js';
import { runSetup } from '../../src/cli/setup.js';

exit(runSetup(routerPorts(), scriptArgs.slice(1)));
