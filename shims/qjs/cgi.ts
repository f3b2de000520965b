import { routerPorts } from './ports.js';
import { handleRequest } from '../../src/main.js';

handleRequest(routerPorts());
