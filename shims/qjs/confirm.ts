import { exit } from 'std';
import { routerPorts } from './ports.js';
import { runConfirm } from '../../src/cli/confirm.js';

exit(runConfirm(routerPorts(), scriptArgs.slice(1)));
