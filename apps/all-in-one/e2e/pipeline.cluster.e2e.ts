import { pipelineSuite } from './pipeline.suite';
import { clusterTopology } from './topologies';

pipelineSuite('gateway, router and email sender over Kafka, MongoDB and Redis', clusterTopology);
