"""The review inbox: people approve, edit, correct or reject the candidates the policy proposed."""
