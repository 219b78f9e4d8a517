import { writeFileSync } from 'fs';
import { join } from 'path';

import { renderOperationsDoc } from './operationsDoc';

writeFileSync(join(__dirname, '..', 'docs', 'operations.md'), renderOperationsDoc());
