public enum DiaryAgentModule {}
