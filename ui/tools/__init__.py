"""Editor tools: select/move, vertices, drawing, buildings, crests, measure, LOS probe."""
