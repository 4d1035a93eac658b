"""The adaptive turn endpoint: models, service, context pack, metrics and its HTTP surface."""
