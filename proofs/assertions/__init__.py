"""Printed assertions outside the numbered results (footnotes, remarks, captions, proof steps), one module per paper."""
