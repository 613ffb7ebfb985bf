import { Injectable } from '@nestjs/common';
import type { ApprovalDecision, ApprovalProvider } from './approval-provider';

/**
 * The default: with no approver configured, every operation that needs approval is refused.
 * @public
 */
@Injectable()
export class DenyAllApprovalProvider implements ApprovalProvider {
  async decide(): Promise<ApprovalDecision> {
    return { approved: false, approver: 'none-configured', reason: 'no approval provider is configured' };
  }
}
