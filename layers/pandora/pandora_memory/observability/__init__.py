"""What the service tells its operators: the catalog of every CloudWatch metric the code emits."""
