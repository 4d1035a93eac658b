"""Pandora Memory: explainable memory decisions for ChatGPT turns and Markdown memory."""
