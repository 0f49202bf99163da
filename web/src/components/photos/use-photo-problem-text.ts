import { Code } from '@connectrpc/connect';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '../form/use-problem-message';
import { NO_ROOM, type PhotoProblem } from './photo-uploads';

/** The words for a photo not sent: ours for the checks on photos, else the reason's. */
export function usePhotoProblemText() {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  return (problem: PhotoProblem, max: number) => {
    switch (problem.reason) {
      case NO_ROOM:
        return t('photos.problems.noRoom', { count: max });
      case 'FILE_TOO_LARGE':
        return t('photos.problems.tooLarge');
      case 'FILE_TYPE_NOT_ALLOWED':
        return t('photos.problems.type');
      default:
        return problemMessage({ code: Code.Unknown, violations: [], ...problem });
    }
  };
}
