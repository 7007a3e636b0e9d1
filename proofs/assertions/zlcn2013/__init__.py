"""zlcn2013 printed assertions outside the numbered results, one module per section or proof."""
