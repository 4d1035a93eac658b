"""DynamoDB access for the candidate inbox and permanent memory. Every key starts with the namespace."""
