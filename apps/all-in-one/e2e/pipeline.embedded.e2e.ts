import { pipelineSuite } from './pipeline.suite';
import { embeddedTopology } from './topologies';

pipelineSuite('one process on embedded backends', embeddedTopology);
