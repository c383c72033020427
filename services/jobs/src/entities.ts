import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { JobKind, JobStatusValue } from '@wordcut/contracts';

@Entity({ name: 'jobs' })
export class JobEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  kind!: JobKind;

  @Column('text')
  status!: JobStatusValue;

  @Column('real', { default: 0 })
  progress!: number;

  @Column('text', { default: '' })
  message!: string;

  @Column('real', { name: 'estimated_time_remaining', nullable: true })
  estimatedTimeRemaining!: number | null;

  @Column('text', { nullable: true })
  error!: string | null;

  @Column('jsonb')
  input!: Record<string, unknown>;

  /** probe jobs: a ProbeResult; render jobs: a RenderSummary */
  @Column('jsonb', { nullable: true })
  result!: Record<string, unknown> | null;

  /** render jobs: the video they render (null for probe jobs) */
  @Column('text', { name: 'video_id', nullable: true })
  videoId!: string | null;

  /** render jobs: who asked (null for probe jobs and anonymous renders); only they may cancel */
  @Column('text', { name: 'user_id', nullable: true })
  userId!: string | null;

  @Column('int', { default: 0 })
  attempts!: number;

  @Column('text', { name: 'correlation_id', nullable: true })
  correlationId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt!: Date | null;
}

/** Every status change of a job, once: the audit trail that proves "completed once". */
@Entity({ name: 'job_transitions' })
@Index(['jobId'])
export class JobTransitionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id!: string;

  @Column('text', { name: 'job_id' })
  jobId!: string;

  @Column('text', { name: 'from_status', nullable: true })
  fromStatus!: JobStatusValue | null;

  @Column('text', { name: 'to_status' })
  toStatus!: JobStatusValue;

  @Column('text', { nullable: true })
  worker!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  at!: Date;
}
