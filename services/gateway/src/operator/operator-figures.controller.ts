import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  errorLogBulkDeleteSchema,
  errorLogQuerySchema,
  failedWebhookQuerySchema,
  webhookBulkDeleteSchema,
  workerMetricsQuerySchema,
  type BulkDeleteCount,
  type ErrorLogPage,
  type FailedWebhookPage,
  type Metrics,
  type WebhookRetryResult,
  type WorkerMetrics,
} from '@wordcut/contracts';
import { OperatorRoute } from '../auth/identity';
import { parseBody, parseId } from '../http';
import { OPERATOR_SERVICE, type OperatorService } from './operator-service';

/** The dashboard's figures, error log and failed webhooks (operator session; CSRF header on POST). */
@OperatorRoute()
@Controller('api')
export class OperatorFiguresController {
  constructor(@Inject(OPERATOR_SERVICE) private readonly operator: OperatorService) {}

  @Get('metrics')
  metrics(): Promise<Metrics> {
    return this.operator.figures.metrics();
  }

  @Get('analytics/lambda-metrics')
  workers(@Query() query: unknown): Promise<WorkerMetrics> {
    return this.operator.figures.workers(parseBody(workerMetricsQuerySchema, query).periodMinutes);
  }

  @Get('analytics/errors')
  errors(@Query() query: unknown): Promise<ErrorLogPage> {
    return this.operator.figures.errors(parseBody(errorLogQuerySchema, query));
  }

  @Post('analytics/errors/bulk-delete')
  @HttpCode(200)
  deleteErrors(@Body() body: unknown): Promise<BulkDeleteCount> {
    return this.operator.figures.deleteErrors(parseBody(errorLogBulkDeleteSchema, body).errorIds);
  }

  @Get('analytics/webhooks/failed')
  failedWebhooks(@Query() query: unknown): Promise<FailedWebhookPage> {
    return this.operator.figures.failedWebhooks(parseBody(failedWebhookQuerySchema, query));
  }

  @Post('analytics/webhooks/:jobId/retry')
  @HttpCode(200)
  retryWebhook(@Param('jobId') jobId: string): Promise<WebhookRetryResult> {
    return this.operator.figures.retryWebhook(parseId(jobId, 'failed webhook'));
  }

  @Post('analytics/webhooks/bulk-delete')
  @HttpCode(200)
  deleteWebhooks(@Body() body: unknown): Promise<BulkDeleteCount> {
    return this.operator.figures.deleteWebhooks(parseBody(webhookBulkDeleteSchema, body).jobIds);
  }
}
