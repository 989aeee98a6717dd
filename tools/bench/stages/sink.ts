// Runs the benchmark SMTP sink on its own (for profiling a stage by hand): prints its URL.
import { SmtpSink } from '../service/smtp-sink';

const sink = new SmtpSink();
void sink.start().then((url) => process.stdout.write(`${url}\n`));
