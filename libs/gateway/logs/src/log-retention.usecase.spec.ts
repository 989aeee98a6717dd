import { loadAppConfig } from '@notify/platform';
import { LogRetentionUseCase } from './log-retention.usecase';

describe('LogRetentionUseCase', () => {
  it('answers LOG_RETENTION_DAYS, 30 unless set', () => {
    expect(new LogRetentionUseCase(loadAppConfig({})).execute()).toEqual({ retentionInDays: 30 });
    expect(new LogRetentionUseCase(loadAppConfig({ LOG_RETENTION_DAYS: '90' })).execute()).toEqual({
      retentionInDays: 90,
    });
  });
});
