import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { renderBarChartSvg } from './bar-chart';

/**
 * Loads vega and vega-lite and renders one small chart while the server starts, before it
 * listens: the first draw_chart would otherwise pay for loading and compiling them (over half
 * a second on this project's VM).
 */
@Injectable()
export class ChartWarmUp implements OnApplicationBootstrap {
  async onApplicationBootstrap(): Promise<void> {
    await renderBarChartSvg([{ value: 'warm-up', count: 1 }], { title: 'warm-up', xLabel: 'value' });
  }
}
