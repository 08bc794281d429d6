"""What the tutor says: sentences and their HTML, made from the data the lower layers compute."""
